#!/usr/bin/env node
// Runs the product's stable-id contract check (../shared/checks/contract.mjs) when it is present beside the clone.
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const contract = resolve('..', 'shared', 'checks', 'contract.mjs');
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
if (!manifest.contributes?.viewsContainers) {
  console.log('contract: no views declared yet, skipped');
  process.exit(0);
}
if (!existsSync(contract)) {
  console.log(`contract: ${contract} not found, skipped`);
  process.exit(0);
}
process.exit(spawnSync(process.execPath, [contract], { stdio: 'inherit' }).status ?? 1);
