/** Types of sourceFiles.js (CommonJS, shared by the scripts and the tests). */

/** The TypeScript sources under `dir`: .ts files, not .d.ts. */
export function listSources(dir: string): string[];

/** Replaces // and /* comments with spaces, keeping line breaks; the contents of strings and templates are left alone. */
export function stripComments(source: string): string;
