#!/usr/bin/env node
// `npm run test:electron`: the same integration suite in desktop VS Code, via @vscode/test-electron. It downloads VS Code
// from Microsoft's update server (cached in .vscode-test/), so it needs the internet; offline, use
// `npm run test:integration` (code-server + headless Chromium). On Linux without a display, run it under xvfb-run.
//
//   npm run test:electron                      latest stable VS Code
//   VSCODE_VERSION=1.90.0 npm run test:electron  a given version (e.g. the engines.vscode minimum)
//   npm run test:electron -- --grep showLog      only matching tests
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runTests } from '@vscode/test-electron';
import { REPO_ROOT } from './prepare.mjs';

const { values: opts } = parseArgs({
  options: { grep: { type: 'string' }, build: { type: 'boolean', default: true } },
  allowNegative: true,
});

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: REPO_ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status || 1);
}

async function main() {
  if (opts.build) {
    run(process.execPath, ['esbuild.js']);
    run('npm', ['run', 'compile', '--silent']);
  }
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-electron-'));
  const fixture = path.join(REPO_ROOT, 'test', 'fixtures', 'workspace');
  if (fs.existsSync(fixture)) fs.cpSync(fixture, workspace, { recursive: true });
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-electron-ud-'));
  try {
    return await runTests({
      version: process.env.VSCODE_VERSION ?? 'stable',
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js'),
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        `--user-data-dir=${userDataDir}`,
      ],
      extensionTestsEnv: opts.grep ? { MOCHA_GREP: opts.grep } : undefined,
    });
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[electron] failed to run the integration suite: ${error?.message ?? error}`);
    process.exit(1);
  },
);
