import * as assert from 'node:assert/strict';
import type { TeamRun } from '../../../src/teamHistory/teamRows';
import {
  START,
  TeamStore,
  retentionDue,
  type SqlPort,
  type SqlRow,
  type SqlValue,
} from '../../../src/teamHistory/teamStore';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const DAY = 24 * 3_600_000;
/** Texts that would break out of SQL if they were ever put into it. */
const HOSTILE = `x'); DROP TABLE flowsync_history.runs; --`;

/** A SqlPort that records every statement and its parameters, answering as an empty store at version 1 would. */
function recordingPort() {
  const sent: Array<{ text: string; params: readonly SqlValue[] }> = [];
  const query = async (text: string, params: readonly SqlValue[] = []): Promise<readonly SqlRow[]> => {
    sent.push({ text, params });
    if (text.includes('to_regclass')) return [{ present: true }];
    if (text.includes("key = 'schema_version'")) return [{ value: '1' }];
    if (text.includes('has_table_privilege')) return [{ may_write: true, may_use: true, read_only: 'off' }];
    if (text.includes('snapshot_floor')) return [{ snapshot_floor: '100', row_id: null }];
    return [{ runs: '1', spans: '0' }];
  };
  const port: SqlPort = { query, transaction: (work) => work({ query }), close: async () => undefined };
  return { port, sent };
}

describe('teamHistory store statements: SQL only with parameters', () => {
  it('every statement is a constant text; what comes from outside is only ever a parameter', async () => {
    const { port, sent } = recordingPort();
    const store = new TeamStore(port, HOSTILE, () => NOW);
    await store.open();
    const row: TeamRun = {
      observer: HOSTILE,
      service: HOSTILE,
      team: '',
      id: 1,
      flowId: 2,
      flowName: HOSTILE,
      createdAt: HOSTILE,
      firstSeen: NOW - 3,
      lastSeen: NOW - 2,
      leftAt: NOW - 1,
      hadErrors: false,
    };
    await store.write([row], [{ observer: HOSTILE, service: HOSTILE, team: '', from: NOW - 5, to: NOW }]);
    await store.read([HOSTILE], { runs: { tx: HOSTILE, row: HOSTILE }, spans: START.spans }, NOW - DAY);
    await store.deleteOwnBefore(NOW - 90 * DAY);
    assert.ok(sent.length >= 6);
    for (const { text, params } of sent) {
      assert.ok(!text.includes(HOSTILE) && !text.includes('DROP'), text);
      for (const p of params) assert.ok(p === null || typeof p === 'string' || typeof p === 'boolean');
    }
    assert.ok(sent.some(({ params }) => params.some((p) => typeof p === 'string' && p.includes(HOSTILE))));
    const read = sent.find(({ text }) => text.includes('snapshot_floor'));
    assert.deepEqual(read?.params.slice(0, 2), ['0', '0'], 'a watermark that is not digits reads from the start');
  });

  it('retention runs once a day', () => {
    assert.equal(retentionDue(undefined, NOW), true);
    assert.equal(retentionDue(NOW - DAY + 1, NOW), false);
    assert.equal(retentionDue(NOW - DAY, NOW), true);
    assert.equal(retentionDue(NOW + 1000, NOW), true, 'a clock that went back');
  });
});
