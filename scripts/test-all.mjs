#!/usr/bin/env node
// `npm test`: every suite CI runs, in order, with the time each stage took. Stops at the first failing stage.
import { spawnSync } from 'node:child_process';

const stages = [
  ['lint', 'npm run lint --silent'],
  ['typecheck', 'npm run typecheck --silent'],
  ['contract', 'node scripts/check-contract.mjs'],
  ['build', 'npm run build --silent'],
  ['budgets', 'node scripts/check-budgets.mjs'],
  ['unit', 'npm run test:unit --silent'],
  // A real VS Code (code-server + headless Chromium), installed under .vscode-test/ on first use (~2-3 min cold).
  ['integration', 'npm run test:integration --silent'],
  // The same rig with workspace trust on: an untrusted folder (Restricted Mode), test/integration/restricted/.
  ['restricted', 'npm run test:integration --silent -- --restricted'],
  ['e2e', 'npm run test:e2e --silent'],
  // The browser build (package.json "browser") alone, in code-server's web worker extension host.
  ['web', 'npm run test:web --silent'],
];

const only = process.argv.slice(2);
const results = [];
let failed = false;
for (const [name, command] of stages) {
  if (only.length && !only.includes(name)) continue;
  console.log(`\n=== ${name}: ${command}`);
  const started = Date.now();
  const { status } = spawnSync(command, { shell: true, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push(`${name.padEnd(12)} ${status === 0 ? 'ok  ' : 'FAIL'} ${seconds.padStart(7)} s`);
  if (status !== 0) {
    failed = true;
    break;
  }
}
console.log('\n=== stage times');
for (const line of results) console.log(line);
process.exit(failed ? 1 : 0);
