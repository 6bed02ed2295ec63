import type { Files } from './types';

/**
 * Files whose code is loaded on the first call (its own chunk: esbuild.js CHUNKS), then every call goes to what `load`
 * made. Whether they can append must be said here: the store asks before the code is loaded.
 */
export function storeFilesOnFirstUse(load: () => Promise<Files>, { append }: { append: boolean }): Files {
  let files: Promise<Files> | undefined;
  const loaded = () => (files ??= load());
  const appendTo = async (path: string, bytes: Uint8Array) => {
    const made = await loaded();
    if (!made.append) throw new Error('these files cannot be appended to');
    return made.append(path, bytes);
  };
  return {
    list: async (dir) => (await loaded()).list(dir),
    stat: async (path) => (await loaded()).stat(path),
    read: async (path, from, length) => (await loaded()).read(path, from, length),
    readCapped: async (path, maxBytes) => (await loaded()).readCapped(path, maxBytes),
    replace: async (path, bytes) => (await loaded()).replace(path, bytes),
    ...(append ? { append: appendTo } : {}),
    rename: async (from, to) => (await loaded()).rename(from, to),
    delete: async (path) => (await loaded()).delete(path),
    mkdir: async (dir) => (await loaded()).mkdir(dir),
  };
}
