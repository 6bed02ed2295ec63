import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMAND } from '../../../src/base/commandIds';
import { ANY_LISTS, LISTS, listById } from '../../../src/lists';
import { LIST_FACES } from '../../../src/lists/listFaces';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8'));

describe('the list registry', () => {
  it('each list has its view, its refresh command and welcome contents in package.json', () => {
    const views = (manifest.contributes.views.flowsync as Array<{ id: string }>).map((v) => v.id);
    const commands = (manifest.contributes.commands as Array<{ command: string }>).map((c) => c.command);
    const welcomed = new Set((manifest.contributes.viewsWelcome as Array<{ view: string }>).map((w) => w.view));
    for (const list of LISTS) {
      assert.ok(views.includes(list.viewId), `${list.viewId} is a view`);
      assert.ok(commands.includes(list.refreshCommand), `${list.refreshCommand} is a command`);
      assert.ok(welcomed.has(list.viewId), `${list.viewId} has welcome contents`);
      assert.equal(listById(list.id), list);
    }
    assert.equal(new Set(LISTS.map((l) => l.id)).size, LISTS.length, 'ids are unique');
    assert.equal(new Set(ANY_LISTS.map((l) => l.rows.leafIdPrefix)).size, LISTS.length, 'tree id prefixes are unique');
  });

  it("each list's face is the start's, in the registry's order, and names exactly its groupings and sortings", () => {
    assert.deepEqual(
      LIST_FACES.map((face) => face.id),
      LISTS.map((list) => list.id),
    );
    for (const face of LIST_FACES) {
      const list = listById(face.id)!;
      for (const key of ['viewId', 'polled', 'emptyText', 'count', 'badge'] as const) {
        assert.equal(list[key], face[key], `${face.id}: ${key}`);
      }
      assert.equal(list.rows.descriptionAges, face.rows.descriptionAges, `${face.id}: rows.descriptionAges`);
      for (const [key, value] of Object.entries(face.arrangements)) {
        assert.equal(list.arrangements[key as keyof typeof face.arrangements], value, `${face.id}: ${key}`);
      }
      assert.deepEqual(Object.keys(list.arrangements.groupings), face.arrangements.groupingNames, face.id);
      assert.deepEqual(Object.keys(list.arrangements.sortings), face.arrangements.sortingNames, face.id);
    }
  });

  it("Copy ID and Copy Link are on every list's rows (their menus name each row context); a row context is no group's", () => {
    const menus = manifest.contributes.menus['view/item/context'] as Array<{ command: string; when: string }>;
    for (const command of [COMMAND.copyId, COMMAND.copyLink]) {
      const when = menus.find((m) => m.command === command)?.when ?? '';
      const pattern = new RegExp(/^viewItem =~ \/(.*)\/$/.exec(when)?.[1] ?? '$.');
      for (const list of ANY_LISTS) assert.match(list.rows.leafContext, pattern, `${command} on ${list.viewId}'s rows`);
    }
    const groupContexts = ANY_LISTS.flatMap((l) =>
      Object.values(l.arrangements.groupings).flatMap((g) => (g ? [g.context] : [])),
    );
    for (const list of ANY_LISTS) assert.ok(!groupContexts.includes(list.rows.leafContext), list.rows.leafContext);
  });

  it('COMMAND holds exactly the commands package.json declares', () => {
    const declared = (manifest.contributes.commands as Array<{ command: string }>).map((c) => c.command).sort();
    assert.deepEqual(Object.values(COMMAND).sort(), declared);
  });
});
