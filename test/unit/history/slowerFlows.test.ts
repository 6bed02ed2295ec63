import * as assert from 'node:assert/strict';
import { NO_OLDER_DAYS, type HistoryEntry } from '../../../src/history/index';
import { SLOWER_RECHECK_MS, SlowerAnnouncer, SlowerFlows } from '../../../src/history/slowerFlows';
import { FakeClock } from '../helpers/fakeClock';
import { leftRun } from '../helpers/historyRuns';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('Slower than usual: the flows, and the notification once per flow per day', () => {
  const clock = new FakeClock();
  const run = (id: number, flowId: number, hoursAgo: number, minutes: number): HistoryEntry =>
    leftRun(id, flowId, `Flow ${flowId}`, hoursAgo, minutes, clock.now());
  /** Flow 7: 5 runs of 4 min before, 5 of `recent` min in the last 24 hours. */
  const history = (recent: number) =>
    [
      ...[1, 2, 3, 4, 5].map((i) => run(i, 7, 30 + i, 4)),
      ...[1, 2, 3, 4, 5].map((i) => run(10 + i, 7, i, recent)),
    ].sort((a, b) => b.leftAt - a.leftAt);

  it('finds the flows slower than usual; keeps the answer SLOWER_RECHECK_MS, then computes again', () => {
    const flows = new SlowerFlows();
    assert.deepEqual(
      [...flows.get(history(6.4), NO_OLDER_DAYS, clock.now()).keys()],
      [7],
      '6.4 min against 4 min: 1.6 times',
    );
    assert.deepEqual(
      [...flows.get(history(5), NO_OLDER_DAYS, clock.now() + SLOWER_RECHECK_MS - 1).keys()],
      [7],
      'kept',
    );
    assert.deepEqual(
      [...flows.get(history(5), NO_OLDER_DAYS, clock.now() + SLOWER_RECHECK_MS).keys()],
      [],
      '5 min against 4: not slower',
    );
  });

  it("the edges (within the histogram's ±2.2 %): 1.55 times is slower, 1.45 is not; fewer than 5 runs on a side never is", () => {
    const flows = () => new SlowerFlows();
    assert.equal(flows().get(history(6.2), NO_OLDER_DAYS, clock.now()).size, 1);
    assert.equal(flows().get(history(5.8), NO_OLDER_DAYS, clock.now()).size, 0);
    assert.equal(flows().get(history(20).slice(1), NO_OLDER_DAYS, clock.now()).size, 0, 'four recent runs');
  });

  it('says a flow once a day; the next day again if it is still slower', () => {
    const announcer = new SlowerAnnouncer();
    const slower = [...new SlowerFlows().get(history(10), NO_OLDER_DAYS, clock.now()).values()];
    assert.deepEqual(
      announcer.next(slower, clock.now()).map((f) => f.flowId),
      [7],
    );
    assert.deepEqual(announcer.next(slower, clock.now() + HOUR), []);
    assert.deepEqual(
      announcer.next(slower, clock.now() + 24 * HOUR).map((f) => f.flowId),
      [7],
    );
  });
});
