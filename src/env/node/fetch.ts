/**
 * node-fetch, as the chunk dist/chunks/fetch.js (esbuild.js CHUNKS): a third of the Node bundle's bytes, needed only
 * at the first request, which comes after activate(). A named export, so that it reads the same whether the chunk is
 * loaded by require() (the bundle) or by the ES module loader.
 */
export { default as fetch } from 'node-fetch';
