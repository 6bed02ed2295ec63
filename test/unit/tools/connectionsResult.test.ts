import * as assert from 'node:assert/strict';
import { connectionsInput, connectionsResult } from '../../../src/tools/connectionsResult';
import { MAX_ROWS } from '../../../src/tools/toolInput';
import { dataRows, notes, outside } from '../helpers/toolAnswer';
import { conn, loaded, snapshot } from '../helpers/toolSnapshots';

describe('language model tool results: flowsync_connections', () => {
  describe('connections', () => {
    const items = [
      conn(1, 'Billing PDFs', 3, 'Operations', 'pdf'),
      conn(2, 'alerts', 3, 'Operations'),
      conn(3, 'Archive', 4, 'Finance', 'PDF'),
      conn(4, 'Slack main', 4, 'Finance'),
      conn(5, 'orphan', 9, undefined),
    ];

    it('sorted by team and name; a row: id, name, type, team, last update', () => {
      const rows = dataRows(connectionsResult(connectionsInput({}), snapshot(loaded(items))));
      assert.deepEqual(
        rows.map((r) => /^connection #(\d+)/.exec(r)![1]),
        ['3', '4', '2', '1', '5'],
      );
      assert.equal(rows[0], 'connection #3 | name "Archive" | type "PDF" | team "Finance" (#4) | updated 1 h ago');
      assert.match(rows[4], /team "Team 9" \(#9\)/);
    });

    it('filters: team by id or name, type exactly (any case), name by part; combined; counts', () => {
      const ids = (input: unknown) =>
        dataRows(connectionsResult(connectionsInput(input), snapshot(loaded(items)))).map((r) =>
          Number(/#(\d+)/.exec(r)![1]),
        );
      assert.deepEqual(ids({ team: '4' }), [3, 4]);
      assert.deepEqual(ids({ team: '#3' }), [2, 1]);
      assert.deepEqual(ids({ team: 'fin' }), [3, 4]);
      assert.deepEqual(ids({ type: 'pdf' }), [3, 1]);
      assert.deepEqual(ids({ name: 'AR' }), [3]);
      assert.deepEqual(ids({ team: 'operations', type: 'PDF' }), [1]);
      const text = connectionsResult(connectionsInput({ team: 'fin', type: 'pdf' }), snapshot(loaded(items)));
      assert.match(text, /^Filters \(the "filters" line of the data block\): 1 of 5 match\.$/m);
      assert.equal(notes(text).filters, 'team "fin", type "pdf"');
    });

    it('row cap and "N more"', () => {
      const many = Array.from({ length: 130 }, (_, i) => conn(i + 1, `c${i}`, 1, 'T'));
      const text = connectionsResult(connectionsInput({ limit: 500 }), snapshot(loaded(many)));
      assert.equal(dataRows(text).length, MAX_ROWS);
      assert.match(text, /^30 more not listed/m);
    });

    it('an unknown team name: names the known teams; a team filter in the views: says so when nothing matches', () => {
      const teams = [
        { id: '3', name: 'Operations' },
        { id: '4', name: 'Finance' },
      ];
      const unknown = connectionsResult(connectionsInput({ team: 'Marketing' }), snapshot(loaded(items), { teams }));
      assert.match(outside(unknown), /No team of that name .* the "known teams" line of the data block\./);
      assert.equal(notes(unknown)['known teams'], '"Operations" (#3), "Finance" (#4)');
      const many = Array.from({ length: 25 }, (_, i) => ({ id: String(i + 1), name: `T${i + 1}` }));
      assert.match(
        notes(connectionsResult(connectionsInput({ team: 'Marketing' }), snapshot(loaded(items), { teams: many })))[
          'known teams'
        ],
        /^"T1" \(#1\), .*"T20" \(#20\), and 5 more$/,
      );
      const filtered = connectionsResult(
        connectionsInput({ team: '4' }),
        snapshot(loaded(items.slice(0, 2)), { teamId: '3', teams }),
      );
      assert.match(filtered, /^Flow Sync: connections \(team #3\)\.$/m);
      assert.equal(notes(filtered)['name of team #3'], '"Operations"');
      assert.match(filtered, /holds only the connections of team #3 .*"Flow Sync: Filter by Team\.\.\."/);
    });
  });
});
