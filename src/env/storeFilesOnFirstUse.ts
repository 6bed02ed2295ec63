import { callsOnFirstUse, type OnFirstUse } from '../base/onFirstUse';
import type { Files } from './types';

/**
 * Files whose code is loaded on the first call (its own chunk: esbuild.js CHUNKS, through onFirstUse), then every call
 * goes to what was made. Whether they can append must be said here: the store asks before the code is loaded.
 */
export function storeFilesOnFirstUse(made: OnFirstUse<Files>, { append }: { append: boolean }): Files {
  const files = callsOnFirstUse(made, ['list', 'stat', 'read', 'readCapped', 'replace', 'rename', 'delete', 'mkdir']);
  const appendTo = async (path: string, bytes: Uint8Array) => {
    const loaded = await made.get();
    if (!loaded.append) throw new Error('these files cannot be appended to');
    return loaded.append(path, bytes);
  };
  return { ...files, ...(append ? { append: appendTo } : {}) };
}
