import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { DAY_MS, makeEntry } from '../../../src/history/entry';
import { flowInsights } from '../../../src/history/insights';
import { NO_OLDER_DAYS, durationBucket, type OlderDays } from '../../../src/history/summary';
import { flowWindow, flowsAt } from '../../../src/insights/flowsOverTime';
import { FlowsByService } from '../../../src/insights/insightsUpdates';
import { NOW } from '../helpers/items';

const MIN = 60_000;

describe('Flow Insights over time (#49 item 10): the last 24 hours brought to a later time', () => {
  it('property: flows brought to a later time are what flowInsights computes then, from any History', () => {
    const run = fc.record({
      flowId: fc.integer({ min: 1, max: 4 }),
      agoMin: fc.integer({ min: -30, max: 4 * 24 * 60 }),
      minutes: fc.integer({ min: 0, max: 600 }),
      timed: fc.boolean(),
    });
    const summaries = fc.array(
      fc.record({ flowId: fc.integer({ min: 1, max: 5 }), minutes: fc.integer({ min: 1, max: 300 }), n: fc.nat(9) }),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(
        fc.array(run, { maxLength: 80 }),
        summaries,
        fc.boolean(),
        fc.integer({ min: 0, max: 3 * 24 * 60 }),
        fc.integer({ min: 0, max: 3 * 24 * 60 }),
        (runs, days, withOlder, windowMin, laterMin) => {
          const entries = runs.map((r, i) => {
            const leftAt = NOW - r.agoMin * MIN;
            const start = leftAt - r.minutes * MIN;
            return makeEntry({
              id: i,
              flowId: r.flowId,
              flowName: `Flow ${r.flowId}`,
              createdAt: r.timed ? new Date(start).toISOString() : 'not a time',
              firstSeen: start,
              lastSeen: leftAt,
              leftAt,
            });
          });
          const before = Math.floor((NOW - 2 * DAY_MS) / DAY_MS) * DAY_MS;
          const older: OlderDays = withOlder
            ? {
                before,
                days: [
                  {
                    day: new Date(before - DAY_MS).toISOString().slice(0, 10),
                    runs: 0,
                    flows: days.map((d) => ({
                      flowId: d.flowId,
                      label: `Flow ${d.flowId}`,
                      labelAt: before - DAY_MS,
                      durations: [durationBucket(d.minutes * MIN), d.n + 1],
                      hours: [],
                    })),
                  },
                ],
              }
            : NO_OLDER_DAYS;
          const computed = flowInsights(entries, older, NOW);
          const windowAt = NOW + windowMin * MIN;
          const later = windowAt + laterMin * MIN;
          const window = flowWindow(entries, older, windowAt);
          assert.deepEqual(flowsAt(computed, window, windowAt), flowInsights(entries, older, windowAt));
          assert.deepEqual(flowsAt(computed, window, later), flowInsights(entries, older, later));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('Flow Insights after a History change (#49 item 10): the flows whose runs changed computed again alone', () => {
  const runOf = (i: number, flowId: number, agoMin: number, minutes: number, timed = true) => {
    const leftAt = NOW - agoMin * MIN;
    const start = leftAt - minutes * MIN;
    return makeEntry({
      id: i,
      flowId,
      flowName: flowId === 3 && i % 2 ? 'Renamed' : `Flow ${flowId}`,
      createdAt: timed ? new Date(start).toISOString() : 'not a time',
      firstSeen: start,
      lastSeen: leftAt,
      leftAt,
    });
  };

  it('property: new runs at the top, the oldest gone, at any time after: as flowInsights computes the new runs', () => {
    const run = fc.record({
      flowId: fc.integer({ min: 1, max: 5 }),
      agoMin: fc.integer({ min: 0, max: 3 * 24 * 60 }),
      minutes: fc.integer({ min: 0, max: 300 }),
      timed: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(run, { maxLength: 60 }),
        fc.array(run, { maxLength: 6 }),
        fc.nat(8),
        fc.integer({ min: 0, max: 5 * 60 }),
        (held, added, dropped, laterMin) => {
          const before = held.map((r, i) => runOf(i, r.flowId, r.agoMin, r.minutes, r.timed));
          const after = [
            ...added.map((r, i) => runOf(1000 + i, r.flowId, -laterMin, r.minutes, r.timed)),
            ...before.slice(0, Math.max(0, before.length - dropped)),
          ];
          const computed: number[] = [];
          const flows = new FlowsByService<object>((entries, older, now) => {
            computed.push([...entries].length);
            return flowInsights(entries, older, now);
          });
          const service = {};
          flows.flows(service, { entries: before, older: NO_OLDER_DAYS }, NOW);
          const later = NOW + laterMin * MIN;
          assert.deepEqual(
            flows.flows(service, { entries: after, older: NO_OLDER_DAYS }, later),
            flowInsights(after, NO_OLDER_DAYS, later),
          );
          const touched = new Set([
            ...added.map((r) => r.flowId),
            ...held.slice(held.length - dropped).map((r) => r.flowId),
          ]);
          if (dropped >= before.length && before.length > 0) {
            assert.equal(computed.length, 2, 'none of the runs left: the service computed anew');
          } else {
            assert.equal(computed.length, 1 + touched.size, 'the service once, then each flow whose runs changed once');
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a departure computes its flow alone (its runs and summaries); runs in another order compute the service anew', () => {
    const computed: string[] = [];
    const flows = new FlowsByService<object>((entries, older, now) => {
      computed.push(`${[...entries].length} runs, ${older.days.length} days`);
      return flowInsights(entries, older, now);
    });
    const service = {};
    const before = Math.floor((NOW - 2 * DAY_MS) / DAY_MS) * DAY_MS;
    const older: OlderDays = {
      before,
      days: [1, 2].map((flowId) => ({
        day: new Date(before - DAY_MS).toISOString().slice(0, 10),
        runs: 0,
        flows: [
          { flowId, label: `Flow ${flowId}`, labelAt: before - DAY_MS, durations: [durationBucket(MIN), 3], hours: [] },
        ],
      })),
    };
    const held = Array.from({ length: 90 }, (_, i) => runOf(i, 1 + (i % 3), i * 20, 5));
    flows.flows(service, { entries: held, older }, NOW);
    const departed = [runOf(500, 2, 0, 9), ...held.slice(0, -1)];
    const got = flows.flows(service, { entries: departed, older }, NOW);
    assert.deepEqual(got, flowInsights(departed, older, NOW));
    assert.deepEqual(
      computed,
      ['90 runs, 2 days', '31 runs, 1 days', '29 runs, 0 days'],
      'the service, then flow 2 (its 30 runs and the new one, its summary) and flow 3 (its oldest run gone)',
    );
    const swapped = [...departed];
    [swapped[10], swapped[11]] = [swapped[11], swapped[10]];
    assert.deepEqual(flows.flows(service, { entries: swapped, older }, NOW), flowInsights(swapped, older, NOW));
    assert.equal(computed.at(-1), '90 runs, 2 days', 'not runs added or gone at an end: the service anew');
  });
});
