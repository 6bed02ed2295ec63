#!/usr/bin/env node
// Renders media/icon.png (the Marketplace icon, 128x128) from the project's own glyph, media/flowsync.svg: the glyph
// in white on a rounded square in the brand color. Uses playwright-core with the system Chromium.
//   npm run icon            (CHROMIUM=/path/to/chromium to use another browser binary)
// The PNG is committed; re-run this only when the SVG or the colors change. Where pngquant and optipng are installed
// (Debian: apt-get install pngquant optipng) the PNG is then made smaller: 256 colours, as the eye cannot tell on a
// 128-pixel gradient, and the best deflate (10,710 -> 5,549 bytes; the Marketplace icon travels in every VSIX).
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SIZE = 128;
/** Brand colors. "galleryBanner" in package.json is a light tint on purpose: on a banner of BACKGROUND_BOTTOM the tile lost its lower edge. */
const BACKGROUND_TOP = '#2b6cb0';
const BACKGROUND_BOTTOM = '#1e3a5f';

const svg = readFileSync(join(root, 'media', 'flowsync.svg'), 'utf8')
  .replace(/\s(width|height)="[^"]*"/g, '')
  .replace('<svg ', '<svg width="88" height="88" ');

const html = `<!doctype html>
<html><head><meta charset="utf-8"><style>
  html, body { margin: 0; padding: 0; background: transparent; }
  #icon {
    width: ${SIZE}px; height: ${SIZE}px; box-sizing: border-box;
    border-radius: 24px;
    background: linear-gradient(160deg, ${BACKGROUND_TOP}, ${BACKGROUND_BOTTOM});
    color: #ffffff;
    display: flex; align-items: center; justify-content: center;
  }
  #icon svg { display: block; }
</style></head>
<body><div id="icon">${svg}</div></body></html>`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--headless'],
});
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  await page.setContent(html);
  const png = await page.locator('#icon').screenshot({ omitBackground: true, type: 'png' });
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  if (width !== SIZE || height !== SIZE) throw new Error(`icon is ${width}x${height}, want ${SIZE}x${SIZE}`);
  const out = join(root, 'media', 'icon.png');
  writeFileSync(out, png);
  console.log(`icon: wrote media/icon.png (${width}x${height}, ${png.length} bytes)`);
  smaller(out);
} finally {
  await browser.close();
}

/** pngquant (256 colours, quality 80-100) then optipng -o7, each only where installed; says what it did. */
function smaller(file) {
  const steps = [
    ['pngquant', ['--quality', '80-100', '--speed', '1', '--force', '--output', file, file]],
    ['optipng', ['-o7', '-quiet', file]],
  ];
  for (const [tool, args] of steps) {
    const run = spawnSync(tool, args, { stdio: 'inherit' });
    if (run.error) console.log(`icon: ${tool} is not installed; media/icon.png left as it is`);
    else if (run.status !== 0) throw new Error(`${tool} exited with ${run.status}`);
    else console.log(`icon: ${tool}: ${statSync(file).size} bytes`);
  }
}
