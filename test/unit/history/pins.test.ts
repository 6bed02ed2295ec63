import * as assert from 'node:assert/strict';
import { flowStats, type HistoryEntry } from '../../../src/history/index';
import {
  FlowPins,
  MAX_PIN_SCOPES,
  MAX_PINS,
  idleFlowRow,
  idleFlowRows,
  lastRuns,
  pinnedStates,
  readPins,
  withPins,
  type StoredPins,
} from '../../../src/history/pins';
import { FakeClock } from '../helpers/fakeClock';
import { sync } from '../helpers/items';
import { leftRun } from '../helpers/historyRuns';

const MIN = 60_000;
const HOUR = 60 * MIN;
const PROD = 'https://flowsync.example.com';
const STAGING = 'https://staging.example.com';

/** A run of `flowId` that ran `minutes` and left `agoMs` before `now` (History's helper: last seen 15 s before it left). */
const run = (id: number, flowId: number, minutes: number, now: number, agoMs: number, flowName = 'Nightly export') =>
  leftRun(id, flowId, flowName, agoMs / HOUR, minutes, now);

/** A globalState stand-in: one value, replaced on write (as VS Code's Memento does). */
function memoryStore(initial?: unknown) {
  let value = initial;
  let writes = 0;
  return {
    read: () => value,
    write: async (next: StoredPins) => {
      value = JSON.parse(JSON.stringify(next));
      writes++;
    },
    get writes() {
      return writes;
    },
  };
}

describe('pinned flows: the pin set (src/history/pins.ts)', () => {
  it('keeps pins per service: a service never sees another service’s pins', async () => {
    let scope: string | undefined = PROD;
    const store = memoryStore();
    const pins = new FlowPins(store, () => scope);
    let changes = 0;
    pins.onDidChange(() => changes++);
    await pins.set([7, 9], true);
    assert.deepEqual(pins.ids(), [7, 9]);
    scope = STAGING;
    assert.deepEqual(pins.ids(), [], 'staging has none of production’s pins');
    await pins.set([3], true);
    assert.deepEqual(store.read(), { [PROD]: [7, 9], [STAGING]: [3] });
    scope = PROD;
    await pins.set([7], false);
    assert.deepEqual(pins.ids(), [9]);
    assert.equal(pins.has(9), true);
    assert.equal(changes, 3);
    scope = undefined;
    assert.deepEqual(pins.ids(), [], 'no service set: no pins');
    assert.deepEqual(await pins.set([1], true), { refused: [] });
    assert.equal(store.writes, 3, 'nothing written without a service');
  });

  it('reads another window’s or machine’s pins (Settings Sync) as soon as the stored value changes', async () => {
    const store = memoryStore({ [PROD]: [1] });
    const pins = new FlowPins(store, () => PROD);
    assert.deepEqual(pins.ids(), [1]);
    await store.write({ [PROD]: [1, 2] });
    assert.deepEqual(pins.ids(), [1, 2]);
  });

  it('is bounded: at most MAX_PINS per service (the rest refused), ids positive safe integers, hostile values ignored', () => {
    const many = Array.from({ length: MAX_PINS + 5 }, (_, i) => i + 1);
    const { value, refused } = withPins(undefined, PROD, many, true);
    assert.equal(value[PROD].length, MAX_PINS);
    assert.deepEqual(refused, [51, 52, 53, 54, 55]);
    const hostile = {
      [PROD]: [1, -2, 0, 1.5, Number.MAX_SAFE_INTEGER + 2, '3', null, 1, 4],
      [STAGING]: 'not a list',
      __proto__: [5],
    };
    assert.deepEqual(readPins(hostile, PROD), [1, 4]);
    assert.deepEqual(readPins(hostile, STAGING), []);
    assert.deepEqual(readPins(hostile, 'constructor'), []);
    assert.deepEqual(readPins([1, 2], PROD), []);
    assert.deepEqual(readPins({ [PROD]: many.concat(many) }, PROD).length, MAX_PINS);
    const written = withPins(hostile, PROD, [NaN, -1, 2 ** 60, 8], true).value;
    assert.deepEqual(written, { [PROD]: [1, 4, 8] }, 'only readable pins are written back');
  });

  it('keeps at most MAX_PIN_SCOPES services, the oldest written giving way', () => {
    let stored: unknown = undefined;
    for (let i = 0; i <= MAX_PIN_SCOPES; i++) stored = withPins(stored, `https://s${i}.example.com`, [1], true).value;
    const scopes = Object.keys(stored as StoredPins);
    assert.equal(scopes.length, MAX_PIN_SCOPES);
    assert.equal(scopes.includes('https://s0.example.com'), false);
    assert.equal(scopes.at(-1), `https://s${MAX_PIN_SCOPES}.example.com`);
    const unpinned = withPins({ [PROD]: [1] }, PROD, [1], false).value;
    assert.deepEqual(unpinned, {}, 'a service with no pins left is not kept');
  });
});

describe('pinned flows: the idle row (src/history/pins.ts)', () => {
  const clock = new FakeClock();
  const now = clock.now();

  it('"idle · last run 2 h ago, ran about 7 min", its usual duration in the tooltip', () => {
    const runs: HistoryEntry[] = [
      run(10, 7, 7, now, 2 * HOUR),
      ...Array.from({ length: 6 }, (_, i) => run(20 + i, 7, 5 + i, now, (3 + i) * HOUR)),
    ];
    const stats = flowStats(runs).get(7);
    const row = idleFlowRow(7, runs[0], stats, now);
    assert.equal(row.label, 'Nightly export');
    assert.deepEqual(row.descriptions, ['idle', 'last run 2 h ago, ran about 7 min']);
    assert.match(row.tooltip, /^Pinned: it stays in this view/);
    assert.match(row.tooltip, /Last run: #10, no longer processing 2 h ago, ran about 7 min\./);
    assert.match(row.tooltip, /Usually done after about 7 min \(\d+–\d+ min, 7 runs\)\./);
  });

  it('"no run seen yet" before History has one; the usual duration once one run is known, however few', () => {
    const none = idleFlowRow(7, undefined, undefined, now);
    assert.equal(none.label, 'Flow 7');
    assert.deepEqual(none.descriptions, ['idle', 'no run seen yet']);
    assert.match(none.tooltip, /No typical duration yet/);
    const one = run(1, 7, 4, now, 30 * MIN);
    assert.match(idleFlowRow(7, one, flowStats([one]).get(7), now).tooltip, /Typical duration: about 4 min, 1 run\./);
  });

  it('the ages move with the clock (a fake clock: nothing sleeps)', async () => {
    const entry = run(1, 7, 7, now, 2 * HOUR);
    await clock.advance(3 * HOUR);
    assert.equal(idleFlowRow(7, entry, undefined, clock.now()).descriptions[1], 'last run 5 h ago, ran about 7 min');
  });

  it('idle rows: the pinned flows with nothing processing, in the order pinned, each with its newest run', () => {
    const entries = [run(3, 9, 2, now, MIN, 'Payroll'), run(2, 7, 7, now, HOUR), run(1, 7, 9, now, 2 * HOUR)];
    const rows = idleFlowRows([7, 8, 9], new Set([9]), entries, new Map(), now);
    assert.deepEqual(
      rows.map((r) => [r.flowId, r.label, r.descriptions[1]]),
      [
        [7, 'Nightly export', 'last run 1 h ago, ran about 7 min'],
        [8, 'Flow 8', 'no run seen yet'],
      ],
    );
    assert.deepEqual(
      [...lastRuns(entries, [7, 9]).values()].map((e) => e.id),
      [3, 2],
    );
  });

  it('the status bar’s states: idle, processing n, with errors', () => {
    const items = [
      sync(1, 7, 'Nightly export'),
      sync(2, 7, 'Nightly export', { errors: { row: 3 } }),
      sync(3, 5, 'Not pinned'),
    ];
    const entries = [run(4, 9, 2, now, MIN, 'Payroll')];
    assert.deepEqual(pinnedStates([9, 7, 8], items, entries), [
      { name: 'Payroll', state: 'idle' },
      { name: 'Nightly export', state: 'processing 2, 1 with errors' },
      { name: 'Flow 8', state: 'idle' },
    ]);
    assert.deepEqual(pinnedStates([], items, entries), []);
  });
});
