import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// `handle.unref?.()` is fine: in a browser a timer is a number, and the call is skipped.
const UNREF = { selector: "CallExpression[optional=false][callee.property.name='unref']", message: 'unref() is Node-only: call it as unref?.() (src also runs in the browser build).' };
/** Hovers are made in one place, which sets what Markdown may do (src/views/hover.ts). */
const MARKDOWN = { selector: "NewExpression[callee.property.name='MarkdownString']", message: 'Make hovers with markdownHover (src/views/hover.ts): one place sets what Markdown may do, and service text reaches it only through escapeMarkdown.' };

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'bench/results.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      curly: ['error', 'multi-line'],
      eqeqeq: ['error', 'smart'],
      'no-restricted-imports': 'off',
    },
  },
  {
    // The platform seam: Node's modules and node-fetch only in src/env/node (and the mock, which is Node-only); the
    // rest of src also runs in the browser build.
    files: ['src/**/*.ts'],
    ignores: ['src/env/node/**', 'src/mock/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'node-fetch', message: 'HTTP goes through src/env (the platform seam).' }],
          patterns: [{ group: ['node:*'], message: 'Node modules only in src/env/node: the rest of src runs in the browser build too.' }],
        },
      ],
    },
  },
  {
    // Node's globals likewise: src also runs in the web worker extension host (dist/web/extension.js), where they do
    // not exist. esbuild fails the browser build on a `node:` import, but not on these.
    files: ['src/**/*.ts'],
    ignores: ['src/env/node/**', 'src/mock/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', 'global', '__dirname', '__filename', 'require', 'module', 'setImmediate', 'clearImmediate'].map((name) => ({
          name,
          message: `${name} is Node-only: src also runs in the browser build. Go through src/env (the platform seam).`,
        })),
      ],
      'no-restricted-syntax': ['error', UNREF, MARKDOWN],
    },
  },
  { files: ['src/views/hover.ts'], rules: { 'no-restricted-syntax': ['error', UNREF] } },
  {
    // The pure layers must stay free of the vscode API so they can be unit-tested in plain Node.
    files: ['src/api/**/*.ts', 'src/core/**/*.ts', 'src/lists/**/*.ts', 'src/env/**/*.ts', 'src/mock/**/*.ts'],
    ignores: [],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: 'src/api, src/core, src/lists, src/env and src/mock must not import vscode.' },
            { name: 'node-fetch', message: 'HTTP goes through src/env (the platform seam).' },
          ],
          patterns: [{ group: ['node:*'], message: 'Node modules only in src/env/node and src/mock.' }],
        },
      ],
    },
  },
  {
    files: ['src/env/node/**/*.ts', 'src/mock/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/env and src/mock must not import vscode.' }] }] },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { require: 'readonly', module: 'writable', process: 'readonly', console: 'readonly', __dirname: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', AbortController: 'readonly', fetch: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
