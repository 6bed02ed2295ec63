// Extensions put into a code-server's extensions folder the way `code-server --install-extension` puts them (each in
// its folder <publisher>.<name>-<version>, listed in extensions.json), without a CLI run per window: the CLI starts Node
// 24 and code-server to unzip one VSIX (about 0.8 s of CPU), and a UI lane opens several windows with the same VSIX.
//
//   - A VSIX is installed by the CLI once, into a template under .vscode-test/installed/ (one per VSIX file: its path,
//     size and time), then copied into each window's folder. Two processes that make the same template at once (the
//     two e2e lanes) each install into a folder of their own and the first to rename it wins.
//   - An extension folder (unpacked: its package.json at its root, e.g. a fixture) is copied as it is: no VSIX made
//     with vsce, no CLI.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RIG_DIR, rigEnv, xdgEnv } from './prepare.mjs';

const TEMPLATES = path.join(RIG_DIR, 'installed');
/** Templates kept (the newest): one per VSIX a run packaged. */
const KEEP_TEMPLATES = 6;
const MANIFEST = 'extensions.json';

/** `code-server --install-extension <vsix>` into the given dirs (no server running needed). */
export function installExtension(rig, dirs, vsix) {
  const r = spawnSync(
    rig.nodeBin,
    [
      rig.codeServerEntry,
      '--user-data-dir',
      dirs.userDataDir,
      '--extensions-dir',
      dirs.extensionsDir,
      '--install-extension',
      vsix,
      '--force',
    ],
    { encoding: 'utf8', env: rigEnv(xdgEnv(dirs.xdgDir)), timeout: 120000 },
  );
  if (r.status !== 0 || /failed/i.test(r.stdout + r.stderr)) {
    throw new Error(`code-server --install-extension ${vsix} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
  return r.stdout.trim();
}

/**
 * Puts each of `extensions` (VSIX files or extension folders) into `extensionsDir` (a fresh server's, still empty) and
 * lists them in its extensions.json, as the CLI would have. Returns what each cost: 'installed' (the CLI ran, for a
 * template), 'copied' (from a template) or 'folder'.
 */
export function putExtensions(rig, extensionsDir, extensions) {
  const entries = [];
  const how = [];
  for (const source of extensions) {
    if (fs.statSync(source).isDirectory()) {
      entries.push(copyFolder(source, extensionsDir));
      how.push('folder');
      continue;
    }
    const { dir, made } = template(rig, source);
    for (const entry of readManifest(dir)) {
      fs.cpSync(path.join(dir, entry.relativeLocation), path.join(extensionsDir, entry.relativeLocation), {
        recursive: true,
      });
      entries.push(entry);
    }
    how.push(made ? 'installed' : 'copied');
  }
  const manifest = entries.map((e) => ({ ...e, location: location(path.join(extensionsDir, e.relativeLocation)) }));
  fs.writeFileSync(path.join(extensionsDir, MANIFEST), JSON.stringify(manifest));
  return how;
}

/** The template of `vsix`: the folder the CLI installed it into, made now when there is none yet. */
function template(rig, vsix) {
  const stat = fs.statSync(vsix);
  const key = crypto
    .createHash('sha256')
    .update(`${path.resolve(vsix)}\n${stat.size}\n${stat.mtimeMs}`)
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(TEMPLATES, `${path.basename(vsix, '.vsix')}-${key}`);
  if (fs.existsSync(path.join(dir, MANIFEST))) return { dir, made: false };
  fs.mkdirSync(TEMPLATES, { recursive: true });
  const own = fs.mkdtempSync(`${dir}.making-`);
  try {
    const dirs = { userDataDir: path.join(own, 'user-data'), extensionsDir: path.join(own, 'extensions') };
    fs.mkdirSync(dirs.extensionsDir, { recursive: true });
    installExtension(rig, { ...dirs, xdgDir: path.join(own, 'xdg') }, vsix);
    try {
      fs.renameSync(dirs.extensionsDir, dir);
    } catch (error) {
      if (!fs.existsSync(path.join(dir, MANIFEST))) throw error; // not another process's template: a real failure
    }
  } finally {
    fs.rmSync(own, { recursive: true, force: true });
  }
  prune(dir);
  return { dir, made: true };
}

/**
 * Removes the templates beyond the newest KEEP_TEMPLATES that are over an hour old (a lane copies from its template for
 * a few minutes; .vscode-test/ may be shared by the checkouts of a machine), never `keep` nor one being made.
 */
function prune(keep) {
  const templates = fs
    .readdirSync(TEMPLATES)
    .filter((name) => !name.includes('.making-'))
    .map((name) => path.join(TEMPLATES, name))
    .filter((dir) => dir !== keep)
    .map((dir) => ({ dir, at: fs.statSync(dir).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { dir, at } of templates.slice(KEEP_TEMPLATES - 1)) {
    if (Date.now() - at > 3_600_000) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** An unpacked extension copied into <publisher>.<name>-<version>; its extensions.json entry. */
function copyFolder(source, extensionsDir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`.toLowerCase();
  const relativeLocation = `${id}-${manifest.version}`;
  fs.cpSync(source, path.join(extensionsDir, relativeLocation), { recursive: true });
  return {
    identifier: { id },
    version: manifest.version,
    relativeLocation,
    metadata: { installedTimestamp: Date.now(), pinned: true, source: 'vsix' },
  };
}

function readManifest(dir) {
  return JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8'));
}

/** A folder as extensions.json gives an extension's location (a serialized file URI). */
function location(dir) {
  return { $mid: 1, fsPath: dir, external: pathToFileURL(dir).href, path: dir, scheme: 'file' };
}
