import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Compiled to out/test/unit/repo/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');
const readJson = (file: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
const readBundle = (file: string): Record<string, string> => readJson(file) as Record<string, string>;

/** The {0}-style placeholders of a message, sorted and deduplicated. */
const placeholders = (message: string): string[] => [...new Set(message.match(/\{\d+\}/g) ?? [])].sort();

// The scripts' source reader (CommonJS, outside out/): loaded by its path in the repository.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { listSources, stripComments } = require(
  path.join(root, 'scripts', 'lib', 'sourceFiles.js'),
) as typeof import('../../../scripts/lib/sourceFiles');

/**
 * Reads the string or template literal that starts at `start` and returns its static text: for a template, the parts
 * outside ${...} (nested braces, strings and templates inside an expression are skipped).
 */
function literalText(source: string, start: number): string {
  const quote = source[start];
  let text = '';
  let i = start + 1;
  while (i < source.length && source[i] !== quote) {
    if (source[i] === '\\') {
      text += source[i + 1] ?? '';
      i += 2;
    } else if (quote === '`' && source.startsWith('${', i)) {
      i = skipExpression(source, i + 2);
    } else {
      text += source[i++];
    }
  }
  return text;
}

/** From just inside `${`, returns the index just past the matching `}`. */
function skipExpression(source: string, i: number): number {
  let depth = 1;
  while (i < source.length && depth > 0) {
    const c = source[i];
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === "'" || c === '"' || c === '`') {
      i = endOfLiteral(source, i);
      continue;
    }
    i++;
  }
  return i;
}

function endOfLiteral(source: string, start: number): number {
  const quote = source[start];
  let i = start + 1;
  while (i < source.length && source[i] !== quote) {
    if (source[i] === '\\') i += 2;
    else if (quote === '`' && source.startsWith('${', i)) i = skipExpression(source, i + 2);
    else i++;
  }
  return i + 1;
}

/**
 * Places where a plain literal would reach the user unlocalized. Each regex ends right before the literal's opening
 * quote. Log lines (log.info/warn/error) are for developers and not matched.
 */
const USER_FACING: Array<[string, RegExp]> = [
  ['message', /\bshow(?:Information|Warning|Error)Message\(\s*(?=['"`])/g],
  ['status bar message', /\bsetStatusBarMessage\(\s*(?=['"`])/g],
  [
    'input/quick pick option',
    /\b(?:title|prompt|placeHolder|placeholder|label|description|detail|tooltip|validationMessage):\s*(?=['"`])/g,
  ],
  [
    'assigned text',
    /\.(?:label|description|tooltip|title|message|name|text|placeholder|prompt|badge)\s*=\s*(?=['"`])/g,
  ],
  ['tree item', /\bnew\s+(?:vscode\.)?TreeItem\(\s*(?=['"`])/g],
  ['markdown', /\bnew\s+(?:vscode\.)?MarkdownString\(\s*(?=['"`])/g],
  ['error message', /\bnew\s+ApiError\(\s*'[^']*',\s*(?=['"`])/g],
];

/** Literal text that carries no words: codicons like $(sync), separators, ids, or an example URL. */
function isNeutral(text: string): boolean {
  if (/^\s*https?:\/\/\S*\s*$/.test(text)) return true;
  return !/\p{L}{2,}/u.test(text.replace(/\$\([\w~-]+\)/g, ''));
}

/** Unlocalized user-facing literals in one source text, as "line: snippet". */
function findBypasses(source: string): string[] {
  const code = stripComments(source);
  const found: string[] = [];
  for (const [kind, pattern] of USER_FACING) {
    for (const match of code.matchAll(pattern)) {
      const at = match.index + match[0].length;
      const text = literalText(code, at);
      if (isNeutral(text)) continue;
      const line = code.slice(0, at).split('\n').length;
      found.push(`${line}: ${kind} ${JSON.stringify(text)}`);
    }
  }
  return found;
}

describe('l10n', () => {
  const en = readBundle('l10n/bundle.l10n.json');
  const de = readBundle('l10n/bundle.l10n.de.json');
  const nls = readBundle('package.nls.json');
  const nlsDe = readBundle('package.nls.de.json');

  it('l10n/bundle.l10n.json is what `npm run l10n` produces from src (re-run it after adding a t(...) string)', () => {
    const scan = spawnSync(process.execPath, [path.join(root, 'scripts', 'l10n.mjs'), '--stdout'], {
      cwd: root,
      encoding: 'utf8',
    });
    assert.equal(scan.status, 0, scan.stderr);
    const expected = JSON.parse(scan.stdout) as Record<string, string>;
    const missing = Object.keys(expected).filter((k) => !(k in en));
    const stale = Object.keys(en).filter((k) => !(k in expected));
    assert.deepEqual(
      { missing, stale },
      { missing: [], stale: [] },
      'l10n/bundle.l10n.json is out of date: run `npm run l10n`',
    );
    assert.equal(
      fs.readFileSync(path.join(root, 'l10n', 'bundle.l10n.json'), 'utf8'),
      scan.stdout,
      'run `npm run l10n` (order or values differ)',
    );
  });

  for (const [name, source, german] of [
    ['l10n/bundle.l10n.json → l10n/bundle.l10n.de.json', en, de],
    ['package.nls.json → package.nls.de.json', nls, nlsDe],
  ] as const) {
    it(`every key has a German translation with the same placeholders (${name})`, () => {
      const untranslated = Object.keys(source).filter((k) => typeof german[k] !== 'string' || !german[k].trim());
      assert.deepEqual(untranslated, [], 'missing German translations');
      // A translation of a string the code no longer has ships in every VSIX for nothing.
      const stale = Object.keys(german).filter((k) => !Object.hasOwn(source, k));
      assert.deepEqual(stale, [], 'German translations of strings that are gone');
      const mismatched = Object.keys(source).filter(
        (k) => placeholders(source[k]).join() !== placeholders(german[k]).join(),
      );
      assert.deepEqual(mismatched, [], 'placeholders differ between English and German');
      // A longer sentence left in English is a forgotten translation (short labels such as "Status" may stay the same).
      const copied = Object.keys(source).filter((k) => german[k] === source[k] && source[k].split(/\s+/).length >= 4);
      assert.deepEqual(copied, [], 'German text is identical to the English one');
    });
  }

  it('the German manifest strings keep the command links of the English ones', () => {
    const links = (text: string) => (text.match(/\]\((command:[^)]+)\)/g) ?? []).sort();
    const differ = Object.keys(nls).filter((k) => links(nls[k]).join() !== links(nlsDe[k] ?? '').join());
    assert.deepEqual(differ, []);
  });

  it('every user-facing manifest string comes from package.nls.json', () => {
    const pkg = readJson('package.json') as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const c = pkg.contributes;
    const strings: Array<[string, unknown]> = [
      ['displayName', pkg.displayName],
      ['description', pkg.description],
      ['capabilities.untrustedWorkspaces.description', pkg.capabilities?.untrustedWorkspaces?.description],
    ];
    for (const x of c.viewsContainers?.activitybar ?? []) strings.push([`viewsContainers ${x.id}`, x.title]);
    for (const views of Object.values(c.views ?? {}) as Array<Array<Record<string, string>>>) {
      for (const v of views) {
        strings.push(
          [`view ${v.id} name`, v.name],
          ...(v.contextualTitle ? [[`view ${v.id} contextualTitle`, v.contextualTitle] as [string, unknown]] : []),
        );
      }
    }
    for (const w of c.viewsWelcome ?? []) strings.push([`viewsWelcome ${w.view} ${w.when}`, w.contents]);
    for (const x of c.commands ?? []) {
      strings.push([`command ${x.command} title`, x.title], [`command ${x.command} category`, x.category]);
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    for (const conf of [].concat(c.configuration ?? []) as Array<Record<string, any>>) {
      strings.push(['configuration title', conf.title]);
      for (const [key, p] of Object.entries(conf.properties ?? {}) as Array<[string, Record<string, unknown>]>) {
        for (const field of [
          'description',
          'markdownDescription',
          'patternErrorMessage',
          'deprecationMessage',
          'markdownDeprecationMessage',
        ]) {
          if (p[field] !== undefined) strings.push([`setting ${key} ${field}`, p[field]]);
        }
        for (const field of ['enumDescriptions', 'markdownEnumDescriptions']) {
          for (const [i, d] of ((p[field] as unknown[]) ?? []).entries()) {
            strings.push([`setting ${key} ${field}[${i}]`, d]);
          }
        }
      }
    }
    for (const w of c.walkthroughs ?? []) {
      strings.push([`walkthrough ${w.id} title`, w.title], [`walkthrough ${w.id} description`, w.description]);
      for (const s of w.steps ?? []) {
        strings.push(
          [`walkthrough step ${s.id} title`, s.title],
          [`walkthrough step ${s.id} description`, s.description],
        );
      }
    }
    const bad = strings
      .filter(([, v]) => typeof v !== 'string' || !/^%[^%]+%$/.test(v) || !(v.slice(1, -1) in nls))
      .map(([where, v]) => `${where}: ${JSON.stringify(v)}`);
    assert.deepEqual(bad, []);
  });

  it('every walkthrough markdown has a German version (<name>.nls.de.md)', () => {
    const pkg = readJson('package.json') as {
      contributes: { walkthroughs?: Array<{ steps: Array<{ media: { markdown?: string } }> }> };
    };
    const files = (pkg.contributes.walkthroughs ?? [])
      .flatMap((w) => w.steps.map((s) => s.media.markdown))
      .filter((f): f is string => !!f);
    assert.ok(files.length > 0);
    const missing = files
      .flatMap((f) => [f, f.replace(/\.md$/, '.nls.de.md')])
      .filter((f) => !fs.existsSync(path.join(root, f)));
    assert.deepEqual(missing, []);
  });

  it('the literal check finds unlocalized strings and lets localized ones pass', () => {
    const flagged = findBypasses(
      [
        "vscode.window.showErrorMessage('Oops');",
        'vscode.window.showWarningMessage(`Failed ${x}`);',
        "showQuickPick(items, { title: 'Pick one', placeHolder: t('fine') });",
        "item.tooltip = 'Hello there';",
        "throw new ApiError('http', 'Broken');",
        "vscode.window.showInformationMessage(t('Fine {0}', x));",
        "showInputBox({ placeHolder: 'https://flowsync.example.com', prompt: t('ok') });",
        "picks.push({ label: `$(sync) ${t('Sync #{0}', id)}`, description: `#${id} · ${x ? ` · ${t('current')}` : ''}` });",
        "// vscode.window.showErrorMessage('commented out');",
        "log.error('for developers');",
      ].join('\n'),
    );
    assert.deepEqual(
      flagged.map((f) => f.split(':')[0]),
      ['1', '2', '3', '4', '5'],
    );
  });

  it('no user-facing string literal in src bypasses t(...) (src/mock is a dev tool and exempt)', () => {
    const src = path.join(root, 'src');
    const bypasses = listSources(src)
      .filter((file) => !path.relative(src, file).split(path.sep).includes('mock'))
      .flatMap((file) =>
        findBypasses(fs.readFileSync(file, 'utf8')).map((hit) => `${path.relative(root, file)}:${hit}`),
      );
    assert.deepEqual(bypasses, [], 'wrap these in t(...) from src/base/l10n.ts and run `npm run l10n`');
  });
});
