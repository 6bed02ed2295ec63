/** The web build's teamChunk.ts (esbuild.js swaps it in): no store code, VS Code for the Web has no TCP. */
export function teamChunk(): undefined {
  return undefined;
}
