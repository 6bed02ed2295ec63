/** The log store alone: the entry of its chunk, dist/chunks/logStore.js (esbuild.js CHUNKS; see lazyLogStore.ts). */
export { LogStore } from './log';
