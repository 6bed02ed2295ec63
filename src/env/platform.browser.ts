/** The platform of the browser build (swapped in for platform.ts by esbuild.js). */
export { browserPlatform as platform } from './browser/platform';
