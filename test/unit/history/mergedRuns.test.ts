import * as assert from 'node:assert/strict';
import { makeEntry, type HistoryEntry } from '../../../src/history/entry';
import { FIRST_ROWS, MergedRuns, STEP_RUNS, type MergeSource } from '../../../src/history/mergedRuns';
import { flowStats } from '../../../src/history/stats';
import { NO_OLDER_DAYS } from '../../../src/history/summary';
import { FakeClock } from '../helpers/fakeClock';

/*
 * One service's History merged with the team's runs a step at a time on the fake clock: the first page at once,
 * every run in steps (or at once when a reader needs them), the stats of the last merge made until the next one is.
 */

const MIN = 60_000;

function run(clock: FakeClock, id: number, minutesAgo: number, flowId = 1): HistoryEntry {
  const leftAt = clock.now() - minutesAgo * MIN;
  return makeEntry({
    id,
    flowId,
    flowName: `Flow ${flowId}`,
    createdAt: new Date(leftAt - 20 * MIN).toISOString(),
    firstSeen: leftAt - 19 * MIN,
    lastSeen: leftAt - 15_000,
    leftAt,
  });
}

/** The team's runs as the port hands them: merged with `local` by leftAt, counting the runs it hands out. */
class Source implements MergeSource {
  team: HistoryEntry[] = [];
  /** Bumped by a test when the team's runs change. */
  changes = 0;
  handed = 0;
  version() {
    return this.team.length ? String(this.changes) : undefined;
  }
  newestFirst(local: readonly HistoryEntry[]): Iterator<HistoryEntry, undefined> | undefined {
    if (!this.team.length) return undefined;
    const merged = [...local, ...this.team].sort((a, b) => b.leftAt - a.leftAt || b.id - a.id);
    let i = 0;
    return {
      next: () => {
        if (i >= merged.length) return { done: true, value: undefined };
        this.handed++;
        return { done: false, value: merged[i++] };
      },
    };
  }
}

function setUp(localCount: number, teamCount: number) {
  const clock = new FakeClock();
  const source = new Source();
  let local = Array.from({ length: localCount }, (_, i) => run(clock, i + 1, 2 * i));
  source.team = Array.from({ length: teamCount }, (_, i) => run(clock, 100_000 + i, 2 * i + 1, 2));
  let finished = 0;
  const stats = flowStats(local);
  const runs = new MergedRuns({
    clock,
    source,
    local: () => ({ entries: local, stats, older: NO_OLDER_DAYS }),
    finished: () => finished++,
  });
  const whole = () => [...local, ...source.team].sort((a, b) => b.leftAt - a.leftAt || b.id - a.id);
  return {
    clock,
    source,
    runs,
    whole,
    stats,
    finished: () => finished,
    setLocal: (entries: HistoryEntry[]) => (local = entries),
  };
}

describe('history: the merged runs a reader sees (MergedRuns)', () => {
  it('the first page is the head of every run merged, and costs the page', () => {
    const s = setUp(3000, 3000);
    const head = s.runs.head(FIRST_ROWS);
    assert.equal(head.length, FIRST_ROWS);
    assert.deepEqual(head, s.whole().slice(0, FIRST_ROWS));
    assert.equal(s.source.handed, FIRST_ROWS);
    assert.equal(s.runs.complete, false);
    assert.strictEqual(s.runs.head(FIRST_ROWS), head, 'the same page again: the same array (the view groups it once)');
  });

  it('every run is merged a step at a time on the clock, and History is told once from a task of its own', async () => {
    const s = setUp(3000, 3000);
    s.runs.head();
    assert.equal(s.clock.pendingTimers, 1);
    await s.clock.advance(0);
    assert.ok(s.runs.complete);
    assert.deepEqual(s.runs.all(), s.whole());
    assert.equal(s.finished(), 1);
    assert.equal(s.clock.pendingTimers, 0);
    assert.equal(s.source.handed, 6000, 'one walk: the page and the steps after it');
  });

  it('no task of the clock merges more than a step of runs', async () => {
    const s = setUp(5 * STEP_RUNS, 5 * STEP_RUNS);
    s.runs.head();
    let most = 0;
    let last = s.source.handed;
    // settle() runs after each timer: what each task merged.
    await s.clock.advance(0, async () => {
      most = Math.max(most, s.source.handed - last);
      last = s.source.handed;
    });
    assert.ok(s.runs.complete);
    assert.ok(most <= STEP_RUNS, `${most} runs in one task`);
    assert.deepEqual(s.runs.all(), s.whole());
  });

  it('a reader that needs every run gets them at once; History is told after, never inside its call', async () => {
    const s = setUp(3000, 3000);
    assert.deepEqual(s.runs.all(), s.whole());
    assert.equal(s.finished(), 0);
    await s.clock.advance(0);
    assert.equal(s.finished(), 1);
  });

  it('the stats are of the last merge made until the current one is, never merged for them', async () => {
    const s = setUp(300, 300);
    assert.strictEqual(s.runs.stats(), s.stats, 'before any merge: this window\u2019s');
    assert.equal(s.source.handed, 0);
    await s.clock.advance(0);
    const merged = s.runs.stats();
    assert.equal(merged.get(2)?.runs, 300, "the team's runs count");
    s.source.team = [...s.source.team, run(s.clock, 200_000, 0, 2)];
    s.source.changes++;
    assert.strictEqual(s.runs.stats(), merged, 'the team changed: the last merge counts until the next is made');
    await s.clock.advance(0);
    assert.equal(s.runs.stats().get(2)?.runs, 301);
    assert.equal(s.finished(), 2);
  });

  it("without the team's runs: this window's own, as they are, with their stats", () => {
    const s = setUp(10, 0);
    assert.equal(s.runs.complete, true);
    assert.strictEqual(s.runs.all(), s.runs.head());
    assert.strictEqual(s.runs.stats(), s.stats);
    assert.equal(s.clock.pendingTimers, 0, 'nothing to merge: no step');
  });

  it('a change of the local runs or the team mid-walk starts again from the newest end', async () => {
    const s = setUp(3000, 3000);
    s.runs.head();
    const fresh = [run(s.clock, 9999, 0.5), ...Array.from({ length: 10 }, (_, i) => run(s.clock, i + 1, 2 * i))];
    s.setLocal(fresh);
    assert.deepEqual(s.runs.head(5), s.whole().slice(0, 5));
    assert.ok(s.runs.head(5).some((e) => e.id === 9999));
    await s.clock.advance(0);
    assert.deepEqual(s.runs.all(), s.whole());
  });

  it('while a new merge is made, the view reads the last one that ended (every run), the first page only without one', async () => {
    const s = setUp(3000, 3000);
    assert.equal(s.runs.head().length, FIRST_ROWS, 'no merge made yet (connecting): the first page');
    assert.equal(s.runs.complete, false);
    await s.clock.advance(0);
    const merged = s.runs.head();
    assert.equal(merged.length, 6000);
    s.setLocal([run(s.clock, 9999, 0.5), ...Array.from({ length: 3000 }, (_, i) => run(s.clock, i + 1, 2 * i))]);
    assert.strictEqual(s.runs.head(), merged, "this window's runs changed: the last merge until the new one ends");
    assert.equal(s.runs.complete, true, 'every run ("6,000 syncs", not "200+")');
    assert.equal(s.source.handed, 6000, 'the view merged nothing for it');
    await s.clock.advance(0);
    assert.deepEqual(s.runs.head(), s.whole());
    s.source.team = [...s.source.team, run(s.clock, 200_000, 0, 2)];
    s.source.changes++;
    assert.equal(s.runs.head().length, 6001, "the team's runs changed: the same");
    await s.clock.advance(0);
    assert.equal(s.runs.head().length, 6002);
    s.runs.forget(); // another scope: the last merge is of other runs
    s.setLocal([...Array.from({ length: 3000 }, (_, i) => run(s.clock, i + 1, 2 * i))]);
    assert.equal(s.runs.head().length, FIRST_ROWS, 'a new scope: its first page');
    assert.equal(s.runs.complete, false);
  });

  it('once disposed, no step is left', () => {
    const s = setUp(3000, 3000);
    s.runs.head();
    s.runs.dispose();
    assert.equal(s.clock.pendingTimers, 0);
  });

  it('once disposed, a late reader (a tool, an export under way) leaves no step, and History is not told', async () => {
    const s = setUp(3000, 3000);
    s.runs.head();
    s.runs.dispose();
    assert.equal(s.runs.head().length, FIRST_ROWS);
    assert.equal(s.clock.pendingTimers, 0, 'the first page of a disposed History: no step');
    assert.deepEqual(s.runs.all(), s.whole());
    s.runs.stats();
    assert.equal(s.clock.pendingTimers, 0, 'every run of a disposed History: no step to say so');
    await s.clock.advance(1000);
    assert.equal(s.finished(), 0, 'a disposed History says nothing (its change would run the stuck announcer)');
  });
});
