/**
 * The one temporary-name rule of every file written whole (Files.replace, an export): `.<name>.<128 random bits in
 * hex>.tmp`, in the file's own folder (a rename there is atomic). Random, so another program or local user cannot
 * plant a file or link at the name beforehand; hidden and ending in `.tmp`, so a leftover (a crash between the write
 * and the rename) is recognised and cleaned up (isTemporaryName).
 */
export function temporaryName(name: string, randomHex = randomBits128()): string {
  return `.${name}.${randomHex}.tmp`;
}

/** The temporary name of a file given by its path with `/` (a URI's path, a path in Files): beside it, in its folder. */
export function temporaryPath(path: string, randomHex = randomBits128()): string {
  return path.replace(/[^/]*$/, (name) => temporaryName(name, randomHex));
}

/** Whether a file's name is a temporary name of temporaryName's rule (a leftover once it is old). */
export function isTemporaryName(name: string): boolean {
  return TEMPORARY.test(name);
}

const TEMPORARY = /^\..+\.[0-9a-f]{32}\.tmp$/;

function randomBits128(): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}
