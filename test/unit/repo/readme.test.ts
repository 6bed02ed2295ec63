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
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
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
    const properties = manifest.contributes.configuration.properties as Record<string, { type: string; default: unknown }>;
    for (const [key, p] of Object.entries(properties)) {
      assert.ok(rows.has(key), `${key} missing from the README's settings table`);
      const [type, defaultCell] = rows.get(key)!;
      assert.equal(type, p.type, `type of ${key}`);
      assert.equal(defaultCell, `\`${JSON.stringify(p.default)}\``, `default of ${key}`);
    }
    const documented = [...rows.keys()].filter((id) => !manifest.contributes.commands.some((c: { command: string }) => c.command === id));
    assert.deepEqual(documented.sort(), Object.keys(properties).sort());
  });

  it('shows pictures that exist', () => {
    for (const [, src] of readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)) assert.ok(fs.existsSync(path.join(root, src)), src);
  });
});
