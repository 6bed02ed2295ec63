/** Types of vscodeStandIn.js (CommonJS, shared by test/unit/extension.test.ts and bench/chunkLoad/child.js). */

/** The modes a test hands activate() in its context (the stand-in's `ExtensionMode`). */
export const ExtensionMode: { Production: number; Development: number; Test: number };

/** A new stand-in for the `vscode` module, its `l10n.t` being `t` (by default the message as it is). */
export function fakeVscode(options?: {
  t?: (message: string, ...args: Array<string | number | boolean>) => string;
}): Record<string, unknown>;

/**
 * Makes `require('vscode')` answer `api` (any stand-in: this module's or a test's own), in every module, until the
 * function it returns is called. `id`: the name it is cached under, one per stand-in.
 */
export function useVscode(api: object, id?: string): () => void;
