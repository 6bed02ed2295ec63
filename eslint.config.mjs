import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// `handle.unref?.()` is fine: in a browser a timer is a number, and the call is skipped.
const UNREF = {
  selector: "CallExpression[optional=false][callee.property.name='unref']",
  message: 'unref() is Node-only: call it as unref?.() (src also runs in the browser build).',
};
/** Hovers are made in one place, which sets what Markdown may do (src/base/vscode/hover.ts). */
const MARKDOWN = {
  selector: "NewExpression[callee.property.name='MarkdownString']",
  message:
    'Make hovers with markdownHover (src/base/vscode/hover.ts): one place sets what Markdown may do, and service text reaches it only through escapeMarkdown.',
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'bench/results.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
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
          patterns: [
            {
              group: ['node:*'],
              message: 'Node modules only in src/env/node: the rest of src runs in the browser build too.',
            },
          ],
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
        ...[
          'process',
          'Buffer',
          'global',
          '__dirname',
          '__filename',
          'require',
          'module',
          'setImmediate',
          'clearImmediate',
        ].map((name) => ({
          name,
          message: `${name} is Node-only: src also runs in the browser build. Go through src/env (the platform seam).`,
        })),
      ],
      'no-restricted-syntax': ['error', UNREF, MARKDOWN],
    },
  },
  { files: ['src/base/vscode/hover.ts'], rules: { 'no-restricted-syntax': ['error', UNREF] } },
  {
    // Pure by path: a feature folder (src/history, src/lists, src/status, ...) keeps its vscode-facing files in its own
    // vscode/ subfolder; every other file in src never imports the vscode API (so it is unit-tested in plain Node) and
    // never reaches into a vscode/ folder (the arrows point from vscode/ to the pure part). src/extension.ts only wires.
    files: ['src/**/*.ts'],
    ignores: ['src/extension.ts', 'src/*/vscode/**', 'src/env/node/**', 'src/mock/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'vscode',
              message:
                "Only src/<feature>/vscode/** and src/extension.ts import vscode: this file is pure (unit-tested in plain Node). Move the vscode-facing part into the feature's vscode/ folder.",
            },
            { name: 'node-fetch', message: 'HTTP goes through src/env (the platform seam).' },
          ],
          patterns: [
            { group: ['node:*'], message: 'Node modules only in src/env/node and src/mock.' },
            {
              group: ['**/vscode/*'],
              message:
                'A pure module never imports from a vscode/ folder (the arrows point from vscode/ to the pure part).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/env/node/**/*.ts', 'src/mock/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'src/env and src/mock must not import vscode.' }] },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
        AbortController: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
