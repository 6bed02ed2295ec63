import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..', '..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8'));
const text = (v: string) => (/^%.+%$/.test(v) ? nls[v.slice(1, -1)] : v);

/** Rows of the README table whose first cell is a `flowsync.*` id: id → the other cells. */
function tableRows(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of readme.split('\n')) {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    const id = /^`(flowsync\.[\w.]+)`$/.exec(cells[0] ?? '')?.[1];
    if (id) rows.set(id, cells.slice(1));
  }
  return rows;
}

describe('README tables match package.json', () => {
  const rows = tableRows();

  it('lists every command with its title, and no other', () => {
    const commands = manifest.contributes.commands as Array<{ command: string; title: string }>;
    for (const c of commands) {
      assert.ok(rows.has(c.command), `${c.command} missing from the README's commands table`);
      assert.equal(rows.get(c.command)![0], text(c.title), `title of ${c.command}`);
    }
    const documented = [...rows.keys()].filter((id) => !(id in manifest.contributes.configuration.properties));
    assert.deepEqual(documented.sort(), commands.map((c) => c.command).sort());
  });

  it('lists every setting with its type and default, and no other', () => {
    const properties = manifest.contributes.configuration.properties as Record<
      string,
      { type: string; default: unknown }
    >;
    for (const [key, p] of Object.entries(properties)) {
      assert.ok(rows.has(key), `${key} missing from the README's settings table`);
      const [type, defaultCell] = rows.get(key)!;
      assert.equal(type, p.type, `type of ${key}`);
      assert.equal(defaultCell, `\`${JSON.stringify(p.default)}\``, `default of ${key}`);
    }
    const documented = [...rows.keys()].filter(
      (id) => !manifest.contributes.commands.some((c: { command: string }) => c.command === id),
    );
    assert.deepEqual(documented.sort(), Object.keys(properties).sort());
  });

  it('shows pictures that exist', () => {
    for (const [, src] of readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)) {
      assert.ok(fs.existsSync(path.join(root, src)), src);
    }
  });
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens (duplicates are not used here). */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

describe('README and the contributor docs link to what exists', () => {
  const docs = [
    'README.md',
    'CONTRIBUTING.md',
    'SECURITY.md',
    ...fs
      .readdirSync(path.join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];

  it('every relative link names a file of the repository, and every #anchor a heading of the file it points into', () => {
    const broken: string[] = [];
    for (const doc of docs) {
      const text = fs.readFileSync(path.join(root, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue; // https:, vscode:, mailto:
        const [file, anchor] = target.split('#');
        const into = file ? path.join(path.dirname(doc), file) : doc;
        if (!fs.existsSync(path.join(root, into))) {
          broken.push(`${doc}: ${target} (no such file)`);
          continue;
        }
        if (anchor === undefined || !into.endsWith('.md')) continue;
        const headings = [...fs.readFileSync(path.join(root, into), 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map(([, h]) =>
          anchorOf(h),
        );
        if (!headings.includes(anchor)) broken.push(`${doc}: ${target} (no such heading in ${into})`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it("a 'Build from source' section gives exactly the two commands of CONTRIBUTING.md's 'Two commands' and links it", () => {
    const contributing = fs.readFileSync(path.join(root, 'CONTRIBUTING.md'), 'utf8');
    const block = /## Two commands[\s\S]*?```sh\n([\s\S]*?)```/.exec(contributing)?.[1] ?? '';
    const commands = block
      .split('\n')
      .map((line) => line.replace(/#.*$/, '').trim())
      .filter(Boolean);
    assert.deepEqual(commands, ['npm install && npm run demo', 'npm test']);
    const section = /## Build from source\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
    assert.deepEqual(
      [...section.matchAll(/`(npm [^`]*)`/g)].map((m) => m[1]),
      commands,
    );
    assert.ok(section.includes('](CONTRIBUTING.md)'), 'the section does not link CONTRIBUTING.md');
  });

  it('the README is the Marketplace page, for users: at most 220 lines (issue #50), and the contributor material is in CONTRIBUTING.md and docs/', () => {
    assert.ok(readme.split('\n').length <= 220, `README.md has ${readme.split('\n').length} lines`);
    for (const doc of ['CONTRIBUTING.md', 'docs/architecture.md', 'docs/performance.md']) {
      assert.ok(readme.includes(`](${doc})`), `README.md does not link ${doc}`);
    }
  });
});

describe('Where the extension runs: package.json and the docs say the same', () => {
  it("extensionKind is the one docs/behaviour.md and the README give (workspace first: the remote's Node host)", () => {
    const behaviour = fs.readFileSync(path.join(root, 'docs', 'behaviour.md'), 'utf8');
    const said = (text: string, pattern: RegExp) => {
      const found = pattern.exec(text)?.[1];
      assert.ok(found, `no extensionKind in ${pattern}`);
      return found.split(',').map((kind) => kind.trim().replace(/"/g, ''));
    };
    assert.deepEqual(manifest.extensionKind, ['workspace', 'ui']);
    assert.deepEqual(said(behaviour, /declares `"extensionKind": \[([^\]]*)\]`/), manifest.extensionKind);
    assert.deepEqual(said(readme, /\(`extensionKind` `\[([^\]]*)\]`\)/), manifest.extensionKind);
  });
});
