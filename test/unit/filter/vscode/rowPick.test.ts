/**
 * pickRow, the quick pick of loaded rows, in plain Node with a stand-in for the `vscode` module whose createQuickPick
 * records what the extension sets and lets the test type and press Enter: the first rows at once, each keystroke's
 * first step in its own task and each next step in a later one, the rows of a text typed since never shown.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { PICK_STEP, PickRows, pickSegment } from '../../../../src/filter/pickRows';

// Compiled to out/test/unit/filter/vscode/: the repository root is five levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { fakeVscode, useVscode } = require(
  path.join(root, 'test', 'unit', 'helpers', 'vscodeStandIn.js'),
) as typeof import('../../helpers/vscodeStandIn');

interface Row {
  readonly label: string;
  readonly section?: string;
  readonly id: number;
}
type Item = { label: string; kind?: number; row?: Row; alwaysShow?: boolean };

/** A quick pick that records its items and lets the test be the person. */
class FakeQuickPick {
  items: Item[] = [];
  /** Every list of items set, in order, and in which task (the number of tasks the test let run before). */
  readonly shown: Item[][] = [];
  busy = false;
  value = '';
  visible = false;
  keepScrollPosition = false;
  title = '';
  placeholder = '';
  matchOnDescription = false;
  activeItems: Item[] = [];
  selectedItems: Item[] = [];
  private readonly handlers = new Map<string, (e: unknown) => void>();

  constructor() {
    return new Proxy(this, {
      set: (target, key, value) => {
        (target as unknown as Record<string | symbol, unknown>)[key] = value;
        if (key === 'items') target.shown.push(value as Item[]);
        return true;
      },
    });
  }

  private on(name: string) {
    return (handler: (e: unknown) => void) => {
      this.handlers.set(name, handler);
      return { dispose: () => this.handlers.delete(name) };
    };
  }
  onDidChangeValue = this.on('value');
  onDidAccept = this.on('accept');
  onDidHide = this.on('hide');
  onDidTriggerItemButton = this.on('button');
  show() {
    this.visible = true;
  }
  hide() {
    if (!this.visible) return;
    this.visible = false;
    this.handlers.get('hide')?.(undefined);
  }
  dispose() {}
  /** The person types `text` (the whole value). */
  type(text: string) {
    this.value = text;
    this.handlers.get('value')?.(text);
  }
  /** The person presses Enter on the active row (the first one shown), if any. */
  enter() {
    const first = this.items.find((i) => i.row);
    this.activeItems = first ? [first] : [];
    this.selectedItems = this.activeItems;
    this.handlers.get('accept')?.(undefined);
  }
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 1));
async function settle(pick: FakeQuickPick) {
  for (let i = 0; i < 10_000 && pick.busy; i++) await nextTask();
}

/** 100,000 rows in two sections, every name its own. */
const ITEMS = Array.from({ length: 50_000 }, (_, i) => ({ id: i, name: `Item ${i}` }));
const rows = () =>
  new PickRows([
    pickSegment({
      items: ITEMS,
      row: (t): Row => ({ label: t.name, section: 'First', id: t.id }),
      id: (t) => t.id,
      name: (t) => t.name,
    }),
    pickSegment({
      items: ITEMS,
      row: (t): Row => ({ label: t.name, section: 'Second', id: t.id + 1_000_000 }),
      id: (t) => t.id + 1_000_000,
      name: (t) => `Other ${t.name}`,
    }),
  ]);

describe('pickRow: a quick pick of loaded rows, a bounded step per task (src/filter/vscode/rowPick.ts)', () => {
  let pickRow: typeof import('../../../../src/filter/vscode/rowPick').pickRow;
  let rowShower: typeof import('../../../../src/filter/vscode/rowPick').rowShower;
  let quickPick: FakeQuickPick;
  let stopUsing: () => void;

  before(() => {
    const vscode = fakeVscode() as Record<string, unknown>;
    vscode.window = { createQuickPick: () => (quickPick = new FakeQuickPick()) };
    vscode.QuickPickItemKind = { Separator: -1, Default: 0 };
    stopUsing = useVscode(vscode, 'vscode-stand-in-rowPick');
    const modulePath = require.resolve('../../../../src/filter/vscode/rowPick');
    delete require.cache[modulePath];
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the 'vscode' stand-in is in place
    ({ pickRow, rowShower } = require(modulePath) as typeof import('../../../../src/filter/vscode/rowPick'));
  });

  after(() => stopUsing());

  it('shows the first rows at once, each always shown, a separator where the section changes', async () => {
    const picked = pickRow(rows(), { title: 'Pick', placeholder: 'Type' });
    assert.equal(quickPick.visible, true);
    assert.equal(quickPick.shown.length, 1, 'the first rows, set once before the pick is shown');
    const first = quickPick.items;
    assert.equal(first.filter((i) => i.row).length, 2_000);
    assert.deepEqual(first[0], { label: 'First', kind: -1 });
    assert.ok(first.filter((i) => i.row).every((i) => i.alwaysShow));
    assert.equal(quickPick.busy, false);
    quickPick.hide();
    assert.equal(await picked, undefined);
  });

  it('a keystroke runs one step in its own task and the rest in later tasks; a text typed since drops the last', async () => {
    const picked = pickRow(rows(), { title: 'Pick' });
    quickPick.type('other item 49999');
    assert.equal(quickPick.busy, true, 'the rare text is not found within the first step');
    const shownBefore = quickPick.shown.length;
    quickPick.type('item 49997');
    await settle(quickPick);
    assert.deepEqual(
      quickPick.items.filter((i) => i.row).map((i) => i.row!.id),
      [49_997, 1_049_997],
      'only the last text is shown',
    );
    assert.deepEqual(
      quickPick.items.map((i) => i.label),
      ['First', 'Item 49997', 'Second', 'Item 49997'],
    );
    assert.ok(quickPick.shown.length > shownBefore);
    quickPick.type('other item 49999');
    const tasks = { count: 0 };
    while (quickPick.busy) {
      await nextTask();
      tasks.count++;
    }
    const rowsFound = quickPick.items.filter((i) => i.row).map((i) => i.row!.id);
    assert.deepEqual(rowsFound, [1_049_999]);
    assert.ok(tasks.count >= (2 * ITEMS.length) / PICK_STEP.scanned, `${tasks.count} later tasks`);
    quickPick.enter();
    assert.equal((await picked)?.id, 1_049_999);
  });

  it('Enter before the text has a row shown picks the first row it finds', async () => {
    const picked = pickRow(rows(), { title: 'Pick' });
    quickPick.type('other item 49998');
    assert.equal(quickPick.items.filter((i) => i.row).length, 0, 'nothing found yet');
    quickPick.enter();
    assert.equal((await picked)?.id, 1_049_998);
  });

  it('nothing to pick: not shown, `nothing` says why', async () => {
    let said = 0;
    quickPick = undefined as unknown as FakeQuickPick;
    const picked = await pickRow(new PickRows<Row>([]), { title: 'Pick', nothing: () => said++ });
    assert.equal(picked, undefined);
    assert.equal(said, 1);
    assert.equal(quickPick, undefined, 'no quick pick made');
  });

  it("rowShower: a new text's rows at once; a text's next steps only with more rows, at most every 100 ms, its last always", () => {
    let clock = 10_000;
    const pick = new FakeQuickPick();
    const show = rowShower<Row>(pick as never, { title: 'Pick' }, () => clock);
    const step = (count: number, done = false) => ({
      rows: Array.from({ length: count }, (_, id): Row => ({ label: `Item ${id}`, id })),
      done,
      examined: { indexed: 0, scanned: 0, names: 0 },
    });
    const shown = () => pick.shown.map((items) => items.length);

    show(step(1), true);
    assert.deepEqual(shown(), [1], 'a new text: its first step at once');
    assert.equal(pick.keepScrollPosition, false, 'a new text starts at its first row');
    clock += 99;
    show(step(2), false);
    assert.deepEqual(shown(), [1], 'more rows 99 ms after: not yet');
    clock += 1;
    show(step(2), false);
    assert.deepEqual(shown(), [1, 2], 'more rows 100 ms after: shown');
    assert.equal(pick.keepScrollPosition, true, "rows added to the same text's keep the person's place");
    clock += 1;
    show(step(3, true), false);
    assert.deepEqual(shown(), [1, 2, 3], 'the last step with more rows: at once, however soon');
    clock += 500;
    show(step(3), false);
    show(step(3, true), false);
    assert.deepEqual(shown(), [1, 2, 3], 'no row more: the list is not set again, not even for the last step');
    show(step(3), true);
    assert.deepEqual(shown(), [1, 2, 3, 3], 'a new text with as many rows: shown all the same');
    assert.equal(pick.keepScrollPosition, false);
  });
});
