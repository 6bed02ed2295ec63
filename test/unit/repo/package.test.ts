import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// Compiled to out/test/unit/repo/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');

/** Entry names of a zip file, read from its central directory (a VSIX is a zip). */
function zipEntries(file: string): string[] {
  const zip = fs.readFileSync(file);
  // End of central directory record: signature 0x06054b50, at most 64 KB of comment after it.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  assert.ok(eocd >= 0, `${file} is not a zip file`);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, 'corrupt central directory');
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

describe('VSIX package', function () {
  this.timeout(60_000);
  let dir: string;
  /** Paths inside the extension folder of the VSIX, e.g. "dist/extension.js". */
  let files: string[];

  before(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-vsix-'));
    // `npm run package` builds the production bundle first; a test run normally follows `npm run build` already.
    if (
      !fs.existsSync(path.join(root, 'dist', 'chunks')) ||
      !fs.existsSync(path.join(root, 'dist', 'web', 'chunks')) ||
      ['extension.js', 'web/extension.js', 'webview/activity.js', 'webview/activity.css'].some(
        (f) => !fs.existsSync(path.join(root, 'dist', f)),
      )
    ) {
      execFileSync(process.execPath, ['esbuild.js', '--production'], { cwd: root, stdio: 'pipe' });
    }
    const vsix = path.join(dir, 'test.vsix');
    const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
    execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', vsix], { cwd: root, stdio: 'pipe' });
    const entries = zipEntries(vsix);
    assert.ok(entries.includes('extension.vsixmanifest'), 'no extension.vsixmanifest: not a VSIX');
    files = entries.filter((e) => e.startsWith('extension/')).map((e) => e.slice('extension/'.length));
  });

  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('holds no sources, tests, maps, dependencies or build and dev folders', () => {
    const forbidden = [
      /\.ts$/,
      /\.map$/,
      /(^|\/)node_modules\//,
      /(^|\/)\.vscode-test\//,
      /(^|\/)test(s)?\//,
      /\.test\.js$/,
      /^out\//,
      /^bench\//,
      /^scripts\//,
      /^src\//,
      /^test-results\//,
      /^\.(ci|github|vscode)\//,
      /\.vsix$/,
      /^dist\/meta\.json$/,
      /^(tsconfig.*|eslint\.config\.mjs|esbuild\.js|package-lock\.json|\.mocharc\.json|\.gitignore|\.vscodeignore)$/,
    ];
    assert.deepEqual(
      files.filter((f) => forbidden.some((re) => re.test(f))),
      [],
    );
  });

  it('declares both entries, and each is in the VSIX: main (Node) and browser (web worker, no Node built-in)', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    assert.equal(pkg.main, './dist/extension.js');
    assert.equal(pkg.browser, './dist/web/extension.js');
    for (const entry of [pkg.main, pkg.browser]) {
      assert.ok(files.includes(entry.replace(/^\.\//, '')), `${entry} is missing from the VSIX`);
    }
    // the Node bundle's chunks, required on first use (esbuild.js CHUNKS): every one it or a chunk requires is in the VSIX
    const chunks = new Set<string>();
    const queue = ['dist/extension.js'];
    for (let file = queue.shift(); file; file = queue.shift()) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      const pattern =
        file === 'dist/extension.js'
          ? /\brequire\(\s*["'`]\.\/chunks\/(\w+\.js)["'`]\s*\)/g
          : /\brequire\(\s*["'`]\.\/(\w+\.js)["'`]\s*\)/g;
      for (const [, name] of text.matchAll(pattern)) {
        if (chunks.has(`dist/chunks/${name}`)) continue;
        chunks.add(`dist/chunks/${name}`);
        queue.push(`dist/chunks/${name}`);
      }
    }
    assert.ok(chunks.size > 0, 'dist/extension.js requires no chunk');
    assert.deepEqual(
      [...chunks].filter((chunk) => !files.includes(chunk)),
      [],
      'chunks missing from the VSIX',
    );
    const web = fs.readFileSync(path.join(root, 'dist', 'web', 'extension.js'), 'utf8');
    const requiredBy = (text: string) => [
      ...new Set([...text.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1])),
    ];
    assert.deepEqual(requiredBy(web), ['vscode'], 'the web bundle may require only vscode');
    assert.doesNotMatch(web, /node-fetch|node:crypto/, 'the Node platform is not in the web bundle');
    // the web bundle's chunks, fetched on first use (esbuild.js WEB_CHUNKS): each one it loads is in the VSIX, and a
    // chunk requires only vscode and the bundle's modules it shares
    const webChunks = [...new Set([...web.matchAll(/\(["']\.\/chunks\/(\w+\.js)["']\)/g)].map((m) => m[1]))];
    assert.ok(webChunks.length > 0, 'dist/web/extension.js loads no chunk');
    for (const name of webChunks) {
      assert.ok(files.includes(`dist/web/chunks/${name}`), `dist/web/chunks/${name} is missing from the VSIX`);
      const chunk = fs.readFileSync(path.join(root, 'dist', 'web', 'chunks', name), 'utf8');
      assert.deepEqual(
        requiredBy(chunk).sort(),
        ['../extension.js', 'vscode'],
        `what dist/web/chunks/${name} requires`,
      );
      assert.doesNotMatch(chunk, /node-fetch|node:crypto/, `the Node platform is not in dist/web/chunks/${name}`);
    }
  });

  it('requires the VS Code API once per file, as it is (esbuild.js vscodeOnce): no copy of its properties per module', () => {
    for (const file of [
      'dist/extension.js',
      'dist/web/extension.js',
      ...fs.readdirSync(path.join(root, 'dist', 'chunks')).map((name) => `dist/chunks/${name}`),
      ...fs.readdirSync(path.join(root, 'dist', 'web', 'chunks')).map((name) => `dist/web/chunks/${name}`),
    ]) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      const requires = [...text.matchAll(/(\w+\()?require\(\s*["'`]vscode["'`]\s*\)/g)];
      assert.ok(requires.length <= 1, `${file} requires vscode ${requires.length} times`);
      assert.ok(
        requires.every(([, call]) => call === undefined),
        `${file} wraps require("vscode") in ${requires.map(([, call]) => call).join(', ')}: a copy of every property of the API`,
      );
    }
  });

  it('holds the bundle, the activity page, the manifest, its translations, the docs, the license and the icon', () => {
    const lower = new Set(files.map((f) => f.toLowerCase()));
    // vsce stores README.md/CHANGELOG.md as readme.md/changelog.md and LICENSE as LICENSE.txt.
    for (const want of [
      'dist/extension.js',
      'dist/web/extension.js',
      'dist/webview/activity.js',
      'dist/webview/activity.css',
      'dist/webview/insights.js',
      'dist/webview/insights.css',
      'dist/webview/timeline.js',
      'dist/webview/timeline.css',
      'package.json',
      'package.nls.json',
      'package.nls.de.json',
      'l10n/bundle.l10n.de.json',
      'readme.md',
      'changelog.md',
      'media/icon.png',
    ]) {
      assert.ok(lower.has(want), `${want} is missing from the VSIX: ${files.join(', ')}`);
    }
    assert.ok(
      lower.has('license') || lower.has('license.txt') || lower.has('license.md'),
      'LICENSE is missing from the VSIX',
    );
    // VS Code reads bundle.l10n.<language>.json for a language other than English only; the English one (the strings
    // of the code, for translators) is never loaded: 9 KB of the VSIX for nothing.
    assert.ok(
      !lower.has('l10n/bundle.l10n.json'),
      'l10n/bundle.l10n.json ships in the VSIX, but VS Code never reads it',
    );
  });

  it('holds only files that run or that the Marketplace shows, and every media file the manifest uses', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const c = pkg.contributes ?? {};
    const media = new Set<string>([pkg.icon]);
    for (const x of c.viewsContainers?.activitybar ?? []) media.add(x.icon);
    for (const views of Object.values(c.views ?? {}) as Array<Array<{ icon?: string }>>) {
      for (const v of views) if (v.icon) media.add(v.icon);
    }
    for (const prompt of c.chatPromptFiles ?? []) media.add(prompt.path);
    for (const w of c.walkthroughs ?? []) {
      for (const s of w.steps ?? []) {
        for (const m of [s.media?.markdown, s.media?.image, s.media?.svg].flat()) {
          if (typeof m === 'string') media.add(m);
        }
      }
    }
    const wanted = [...media].filter(Boolean).map((m) => m.replace(/^\.\//, ''));
    const missing = wanted.filter((m) => !files.includes(m));
    assert.deepEqual(missing, [], 'media files the manifest uses but the VSIX lacks');

    const allowed = (f: string) =>
      f === 'dist/extension.js' ||
      /^dist\/chunks\/\w+\.js$/.test(f) ||
      f === 'dist/web/extension.js' ||
      /^dist\/web\/chunks\/\w+\.js$/.test(f) ||
      f === 'dist/webview/activity.js' ||
      f === 'dist/webview/activity.css' ||
      f === 'dist/webview/insights.js' ||
      f === 'dist/webview/insights.css' ||
      f === 'dist/webview/timeline.js' ||
      f === 'dist/webview/timeline.css' ||
      /^package(\.nls(\.[\w-]+)?)?\.json$/.test(f) ||
      /^l10n\/bundle\.l10n(\.[\w-]+)?\.json$/.test(f) ||
      /^(readme|changelog)\.md$/i.test(f) ||
      /^license(\.txt|\.md)?$/i.test(f) ||
      wanted.includes(f) ||
      // the localized variants VS Code looks for beside a walkthrough markdown file: <name>.nls.<locale>.md
      wanted.some(
        (m) =>
          m.endsWith('.md') &&
          new RegExp(`^${m.replace(/\.md$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.nls\\.[\\w-]+\\.md$`).test(f),
      );
    assert.deepEqual(
      files.filter((f) => !allowed(f)),
      [],
      'unexpected files in the VSIX',
    );
  });
});
