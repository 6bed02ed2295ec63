/** The platform of this build: Node. The browser bundle replaces this module with platform.browser.ts (esbuild.js). */
export { nodePlatform as platform } from './node/platform';
