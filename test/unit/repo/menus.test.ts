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
