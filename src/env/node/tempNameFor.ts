import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { temporaryName } from '../temporaryName';

/** The temporary name beside `target` (the one rule: src/env/temporaryName.ts), from 128 bits of node:crypto. */
export function tempNameFor(target: string): string {
  return join(dirname(target), temporaryName(basename(target), randomBytes(16).toString('hex')));
}
