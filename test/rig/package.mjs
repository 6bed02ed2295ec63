#!/usr/bin/env node
// `npm test`'s package stage: the VSIXs the UI stages install, packaged once from the production build in dist/ (the
// build stage's), beside the unit tests, so that no stage in a real VS Code packages one itself:
//   out/flowsync-explorer.vsix      E2E_VSIX: both e2e lanes (E2E_PACKAGED=1); exactly what `npm run package` ships
//   out/flowsync-explorer-web.vsix  WEB_VSIX: the web stage's web-only VSIX (`npm run test:web -- --no-package`)
// Each is written beside its name and renamed over it, so a stage never installs a VSIX being written.
import fs from 'node:fs';
import path from 'node:path';
import { E2E_VSIX, REPO_ROOT, packageVsix, packageWebOnlyVsix } from './codeServer.mjs';

const t0 = Date.now();
const packaged = `${E2E_VSIX}.${process.pid}`;
packageVsix({ out: packaged });
fs.renameSync(packaged, E2E_VSIX);
packageWebOnlyVsix();
console.log(
  `[package] ${path.relative(REPO_ROOT, E2E_VSIX)} and the web-only VSIX packaged in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
);
