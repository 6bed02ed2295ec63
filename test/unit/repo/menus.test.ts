import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const titleMenu = manifest.contributes.menus['view/title'] as Array<{ command: string; when: string; group?: string }>;
const views = (manifest.contributes.views.flowsync as Array<{ id: string }>).map((v) => v.id);

/** Whether a `when` clause can hold in the view `id` (its `view == …` or `view =~ /…/` part). */
function inView(when: string, id: string): boolean {
  const equal = /\bview == ([\w.]+)/.exec(when)?.[1];
  if (equal) return equal === id;
  const pattern = /\bview =~ \/(.+?)\/(?:\s|$)/.exec(when)?.[1];
  return pattern ? new RegExp(pattern).test(id) : false;
}

describe("the views' title bars (package.json menus view/title)", () => {
  it('each view shows at most 3 buttons of its own, so its description (where a filter says itself) keeps room', () => {
    // At the side bar's default width a view's header has about 180 px beside its name; VS Code adds Collapse All and
    // "..." (24 px each). With 6 buttons the description "filter: … · 1 of 8" was cut to "fi…".
    for (const view of views) {
      const buttons = titleMenu
        .filter((m) => m.group?.startsWith('navigation') && inView(m.when, view))
        .map((m) => m.command);
      assert.ok(buttons.length > 0, `${view} has a button`);
      assert.ok(buttons.length <= 3, `${view}'s title bar: ${buttons.join(', ')}`);
    }
  });

  it('the rest is in each view\'s "..." menu, its own commands first and the settings last', () => {
    for (const view of views) {
      const groups = [
        ...new Set(
          titleMenu
            .filter((m) => !m.group?.startsWith('navigation') && inView(m.when, view))
            .map((m) => (m.group ?? '').split('@')[0]),
        ),
      ].sort();
      assert.ok(groups.length > 0, `${view} has a "..." menu`);
      assert.ok(
        groups.every((g) => /^\d_\w+$/.test(g)),
        `${view}: groups named "<order>_<name>", so VS Code shows them in that order: ${groups}`,
      );
      assert.equal(groups.at(-1), '5_settings', `${view}: the settings last`);
    }
  });
});

const itemMenu = manifest.contributes.menus['view/item/context'] as Array<{ command: string; when: string }>;

/** Whether a row menu's `when` holds for a row of context value `context` (its `viewItem =~ /…/` or `viewItem == …`). */
function onRow(when: string, context: string): boolean {
  const equal = /\bviewItem == ([\w.]+)/.exec(when)?.[1];
  if (equal) return equal === context;
  const pattern = /\bviewItem =~ \/(.+?)\/(?:\s|$)/.exec(when)?.[1];
  return pattern ? new RegExp(pattern).test(context) : false;
}

/** The commands a row's context menu offers. */
const offered = (context: string) => new Set(itemMenu.filter((m) => onRow(m.when, context)).map((m) => m.command));

/** Every context value a row of a flow can have: `base`, then each of `marks` or not, in order. */
function contexts(base: string, marks: readonly string[]): string[] {
  return marks.reduce((all, mark) => all.flatMap((c) => [c, c + mark]), [base]);
}

describe("Pin Flow and Unpin Flow in the rows' menus (package.json menus view/item/context)", () => {
  // A Processing flow row (grouped by flow): watched, pinned, with a web page; a History run: its flow pinned, a page.
  const rows = [
    ...contexts('flowsync.flow', ['.watched', '.pinned', '.web']),
    ...contexts('flowsync.historyEntry', ['.pinned', '.web']),
  ];

  it('Pin Flow only where the flow is not pinned, Unpin Flow only where it is: on flow rows and History runs', () => {
    for (const context of rows) {
      const pinned = context.includes('.pinned');
      const menu = offered(context);
      assert.equal(menu.has('flowsync.pinFlow'), !pinned, `Pin Flow on ${context}`);
      assert.equal(menu.has('flowsync.unpinFlow'), pinned, `Unpin Flow on ${context}`);
    }
  });

  it("a row's other commands are the same whether its flow is pinned or not", () => {
    const others = (context: string) =>
      [...offered(context)].filter((c) => c !== 'flowsync.pinFlow' && c !== 'flowsync.unpinFlow').sort();
    for (const context of rows.filter((c) => !c.includes('.pinned'))) {
      const pinned = context.replace(/^(flowsync\.\w+(?:\.watched)?)/, '$1.pinned');
      assert.deepEqual(others(pinned), others(context), `${pinned} and ${context}`);
    }
  });
});

describe("Copy as Markdown in the rows' menus (package.json menus view/item/context)", () => {
  it('on every row it says: a processing sync, a flow, a connection, a team and a History run, whatever their marks', () => {
    const rows = [
      ...contexts('flowsync.sync', ['.watched', '.web']),
      ...contexts('flowsync.flow', ['.watched', '.pinned', '.web']),
      ...contexts('flowsync.connection', ['.web']),
      ...contexts('flowsync.team', ['.web']),
      ...contexts('flowsync.historyEntry', ['.pinned', '.web']),
    ];
    for (const context of rows) assert.ok(offered(context).has('flowsync.copyAsMarkdown'), context);
    for (const context of ['flowsync.service', 'flowsync.historyDay', 'flowsync.status', 'flowsync.type']) {
      assert.ok(!offered(context).has('flowsync.copyAsMarkdown'), `not on ${context}`);
    }
  });
});
