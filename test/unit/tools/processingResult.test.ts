import * as assert from 'node:assert/strict';
import type { FlowSync } from '../../../src/api/types';
import { ApiError } from '../../../src/api/errors';
import { connectionsInput, connectionsResult } from '../../../src/tools/connectionsResult';
import { processingInput, processingResult } from '../../../src/tools/processingResult';
import { dataRows, notes, outside } from '../helpers/toolAnswer';
import { NOW, iso } from '../helpers/items';
import { sync, conn, loaded, snapshot, manySyncs } from '../helpers/toolSnapshots';

describe('language model tool results: flowsync_processing', () => {
  describe('processing', () => {
    it('lists at most 25 rows by default and says how many more there are', () => {
      const result = processingResult(processingInput({}), snapshot(loaded(manySyncs(30))));
      assert.equal(dataRows(result).length, 25);
      assert.match(result, /^30 in all\.$/m);
      assert.match(result, /^5 more not listed\. .*"limit"/m);
    });

    it('limit: that many rows; no "more" line when all fit', () => {
      const three = processingResult(processingInput({ limit: 3 }), snapshot(loaded(manySyncs(30))));
      assert.equal(dataRows(three).length, 3);
      assert.match(three, /^27 more not listed/m);
      const all = processingResult(processingInput({ limit: 100 }), snapshot(loaded(manySyncs(30))));
      assert.equal(dataRows(all).length, 30);
      assert.doesNotMatch(all, /more not listed/);
    });

    it('a row: id, flow, status, start, webhook and errors; longest running first', () => {
      const items = [
        sync(2, 5, 'Orders to CRM', { webhook: true }),
        sync(9, 6, undefined, { errors: [{ message: 'E_TIMEOUT: upstream' }], status: 'running' }),
      ];
      const rows = dataRows(processingResult(processingInput({}), snapshot(loaded(items))));
      assert.equal(rows.length, 2);
      assert.match(
        rows[0],
        /^flow sync #9 \| flow "Flow 6" \(#6\) \| status "running" \| started 9 min ago \("2026-11-22T11:51:00\.000Z"\) \| errors "\[\{\\"message\\":\\"E_TIMEOUT: upstream\\"\}\]"$/,
      );
      assert.match(
        rows[1],
        /^flow sync #2 \| flow "Orders to CRM" \(#5\) \| status "pending" \| started 2 min ago .* \| triggered by webhook$/,
      );
    });

    it('a start or update time that cannot be true (1970, the future) is "unknown time", never an age', () => {
      const items = [
        sync(3, 5, 'A', { created_at: '1970-01-01T00:00:00.000Z' }),
        sync(4, 5, 'A', { created_at: iso(-24 * 3_600_000) }),
      ];
      for (const row of dataRows(processingResult(processingInput({}), snapshot(loaded(items))))) {
        assert.match(row, / \| started unknown time \(/);
      }
      const odd = conn(1, 'A', 3, 'T');
      const rows = dataRows(
        connectionsResult(
          connectionsInput({}),
          snapshot(loaded([{ ...odd, value: { ...odd.value, updated_at: '1970-01-01T00:00:00.000Z' } }])),
        ),
      );
      assert.match(rows[0], / \| updated unknown time$/);
    });

    it('flow filter: by id ("12" or "#12") or by part of the name, case-insensitive; says how many match', () => {
      const items = manySyncs(9); // flows 100, 101, 102 named "Flow 0", "Flow 1", "Flow 2"
      const byId = processingResult(processingInput({ flow: '#101' }), snapshot(loaded(items)));
      assert.deepEqual(
        dataRows(byId).map((r) => /flow "([^"]+)"/.exec(r)![1]),
        ['Flow 1', 'Flow 1', 'Flow 1'],
      );
      assert.match(byId, /^Filters \(the "filters" line of the data block\): 3 of 9 match\.$/m);
      assert.equal(notes(byId).filters, 'flow "#101"');
      const byName = processingResult(processingInput({ flow: 'flow 2' }), snapshot(loaded(items)));
      assert.equal(dataRows(byName).length, 3);
      const none = processingResult(processingInput({ flow: 'nothing like it' }), snapshot(loaded(items)));
      assert.match(outside(none), /0 of 9 match\.\nNothing to list\.\n/);
      assert.deepEqual(dataRows(none), []);
      assert.equal(notes(none).filters, 'flow "nothing like it"');
    });

    it('team filter: answered when the lists were loaded for that team, explained otherwise (flow syncs carry no team)', () => {
      const items = manySyncs(4);
      const teams = [{ id: '3', name: 'Operations' }];
      const forTeam3 = snapshot(loaded(items), { teamId: '3', teams });
      assert.equal(dataRows(processingResult(processingInput({ team: '3' }), forTeam3)).length, 4);
      assert.equal(dataRows(processingResult(processingInput({ team: 'operat' }), forTeam3)).length, 4);
      const scoped = processingResult(processingInput({}), forTeam3);
      assert.match(scoped, /^Flow Sync: flow syncs processing now \(team #3\)\.$/m);
      assert.equal(notes(scoped)['name of team #3'], '"Operations"', 'the team name is data, in the block');

      const other = processingResult(processingInput({ team: '4' }), forTeam3);
      assert.match(
        other,
        /holds only the flow syncs of team #3 .*cannot list those of the team asked for .*"Flow Sync: Filter by Team\.\.\."/,
      );
      assert.deepEqual(dataRows(other), []);
      assert.equal(notes(other).filters, 'team "4"');

      const allTeams = processingResult(processingInput({ team: '3' }), snapshot(loaded(items), { teams }));
      assert.match(allTeams, /do not say which team they belong to.*"Flow Sync: Filter by Team\.\.\."/);
      assert.deepEqual(dataRows(allTeams), []);
    });

    it('stale data: the error and the age of the data come first; a failed first load lists nothing', () => {
      const stale = loaded(manySyncs(2), {
        loadedAt: NOW - 120_000,
        failures: 1,
        error: new ApiError('network', 'Could not load processing flow syncs: ECONNREFUSED'),
      });
      const text = processingResult(processingInput({}), snapshot(stale));
      assert.match(
        outside(text),
        /^The last refresh failed \(its message is the "last error" line of the data block\)\. The data below is from 2 min ago\.$/m,
      );
      assert.equal(notes(text)['last error'], '"Could not load processing flow syncs: ECONNREFUSED."');
      assert.doesNotMatch(outside(text), /ECONNREFUSED/, 'the message is data, in the block');
      assert.equal(dataRows(text).length, 2);
      const never = processingResult(
        processingInput({}),
        snapshot<FlowSync>({
          dropped: 0,
          loading: false,
          failures: 1,
          error: new ApiError('timeout', 'No answer within 15 s'),
        }),
      );
      assert.match(
        outside(never),
        /^The processing flow syncs could not be loaded\. The message is the "last error" line of the data block\.$/m,
      );
      assert.equal(notes(never)['last error'], '"No answer within 15 s."');
      assert.deepEqual(dataRows(never), []);
      const notYet = processingResult(
        processingInput({}),
        snapshot<FlowSync>({ dropped: 0, loading: false, failures: 0 }),
      );
      assert.match(notYet, /not loaded yet/);
    });

    it('says how many items the service sent in a shape that was left out', () => {
      const text = processingResult(
        processingInput({}),
        snapshot(loaded(manySyncs(1), { dropped: 2, firstDropReason: 'item 3: id is not an integer' })),
      );
      assert.match(text, /2 item\(s\) from the service were left out/);
    });
  });

  it('processing: "N of M match", rows from the filter only; the filter is data', () => {
    const items = [sync(1, 7, 'Invoices'), sync(2, 8, 'Receipts', { errors: { m: 'boom' } }), sync(3, 8, 'Receipts')];
    const result = processingResult(processingInput({ filter: 'receipts -has:errors' }), snapshot(loaded(items)));
    assert.match(result, /1 of 3 match/);
    assert.equal(dataRows(result).length, 1);
    assert.match(dataRows(result)[0], /#3/);
    assert.ok(!outside(result).includes('receipts -has:errors'), 'the filter stands only in the block');
  });

  it("processing: History's flags (is:stuck) reach the filter", () => {
    const items = [sync(1, 7, 'A'), sync(2, 7, 'A')];
    const result = processingResult(
      processingInput({ filter: 'is:stuck' }),
      snapshot(loaded(items), { live: (s) => ({ flags: { stuck: s.id === 2 } }) }),
    );
    assert.match(result, /1 of 2 match/);
  });
});
