#!/usr/bin/env node
// `npm run screenshots`: runs the e2e suite (a real VS Code against the mock API) and copies the pictures the README
// shows from test-results/screenshots/readme-*.png to docs/images/. The README's pictures are the suite's output.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const from = path.join(root, 'test-results', 'screenshots');
const to = path.join(root, 'docs', 'images');

if (!process.argv.includes('--copy-only')) {
  const run = spawnSync('npm', ['run', 'test:e2e', '--silent'], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
fs.mkdirSync(to, { recursive: true });
const pictures = fs.readdirSync(from).filter((f) => /^readme-.*\.png$/.test(f));
if (pictures.length === 0) {
  console.error('screenshots: no readme-*.png in test-results/screenshots');
  process.exit(1);
}
for (const file of pictures) {
  fs.copyFileSync(path.join(from, file), path.join(to, file.replace(/^readme-/, '')));
  console.log(`screenshots: docs/images/${file.replace(/^readme-/, '')}`);
}
