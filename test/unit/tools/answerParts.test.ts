import * as assert from 'node:assert/strict';
import { makeEntry } from '../../../src/history/index';
import type { ExplorerStatus } from '../../../src/lists/explorer';
import { parseWebTemplates } from '../../../src/webPages/webUrl';
import { notSetUpText } from '../../../src/tools/answerParts';
import { connectionsInput, connectionsResult } from '../../../src/tools/connectionsResult';
import { DATA_START } from '../../../src/tools/dataBlock';
import { historyInput, historyResult } from '../../../src/tools/historyResult';
import { processingInput, processingResult } from '../../../src/tools/processingResult';
import { dataRows, notes, outside } from '../helpers/toolAnswer';
import { NOW } from '../helpers/items';
import { sync, conn, loaded, snapshot, manySyncs } from '../helpers/toolSnapshots';

describe("language model tool results: what the tools' answers share", () => {
  describe('not set up', () => {
    const cases: Array<[ExplorerStatus, RegExp[]]> = [
      ['noUrl', [/"Flow Sync: Set Service URL\.\.\."/, /"Flow Sync: Set API Key\.\.\."/]],
      ['invalidUrl', [/"Flow Sync: Set Service URL\.\.\."/]],
      ['noKey', [/"Flow Sync: Set API Key\.\.\."/]],
      ['secretsUnavailable', [/keyring/, /"Flow Sync: Set API Key\.\.\."/]],
    ];
    for (const [status, wanted] of cases) {
      it(`${status}: every tool says how to set it up, and lists nothing`, () => {
        const processing = processingResult(processingInput({}), snapshot(loaded(manySyncs(3)), { status }));
        const connections = connectionsResult(
          connectionsInput({}),
          snapshot(loaded([conn(1, 'a', 1, 'A')]), { status }),
        );
        for (const text of [processing, connections, notSetUpText(status)]) {
          for (const re of wanted) assert.match(text, re);
          assert.doesNotMatch(text, new RegExp(DATA_START));
        }
      });
    }

    it('the detail of an unusable URL is inert and says what is wrong', () => {
      const text = notSetUpText('invalidUrl', 'The URL must start with https:// [x](command:evil) $(key) <b>');
      assert.match(outside(text), /"problem" line of the data block/);
      assert.doesNotMatch(outside(text), /must start/, 'the reason is data, in the block');
      assert.match(notes(text).problem, /^"The URL must start with https:\/\/ .*"$/);
      assert.doesNotMatch(notes(text).problem, /\]\(|\$\(|[<>]/);
    });
  });

  it('a malformed filter is answered with its problem, as data, and nothing is listed', () => {
    const result = connectionsResult(
      connectionsInput({ filter: 'is:stuck' }),
      snapshot(loaded([conn(5, 'Slack', 3, 'Sales')])),
    );
    assert.match(notes(result)['filter problem'] ?? '', /^".*does not apply/, result);
    assert.equal(dataRows(result).length, 0);
    const long = processingResult(processingInput({ filter: 'x'.repeat(5000) }), snapshot(loaded([sync(1, 7, 'A')])));
    assert.match(notes(long)['filter problem'] ?? '', /at most 200 characters/, long);
  });

  describe('the url of a row (Open in Browser), inside the data block, when a template is set', () => {
    const { templates: pages } = parseWebTemplates(
      {
        sync: 'https://app.example.com/flows/{flow_id}/syncs/{id}',
        connection: 'https://app.example.com/teams/{team_id}/connections/{id}',
      },
      'flowsync.webUrl',
    );

    it('a processing sync, a connection and a History run carry their page', () => {
      const processing = processingResult(
        processingInput({}),
        snapshot(loaded([sync(1003, 7, 'Invoices')]), { pages }),
      );
      assert.match(dataRows(processing)[0], /url "https:\/\/app\.example\.com\/flows\/7\/syncs\/1003"/);
      assert.doesNotMatch(outside(processing), /app\.example\.com/, 'only inside the data block');
      const connections = connectionsResult(
        connectionsInput({}),
        snapshot(loaded([conn(5, 'Mail', 42, 'Finance')]), { pages }),
      );
      assert.match(dataRows(connections)[0], /url "https:\/\/app\.example\.com\/teams\/42\/connections\/5"/);
      const history = historyResult(historyInput({}), {
        status: 'ready',
        now: NOW,
        historyDays: 7,
        entries: [
          makeEntry({
            id: 1004,
            flowId: 8,
            flowName: 'Orders',
            createdAt: new Date(NOW - 600_000).toISOString(),
            firstSeen: NOW - 590_000,
            lastSeen: NOW - 60_000,
            leftAt: NOW - 30_000,
          }),
        ],
        stuck: [],
        pages,
      });
      assert.match(dataRows(history).join('\n'), /url "https:\/\/app\.example\.com\/flows\/8\/syncs\/1004"/);
    });

    it('no template, no url', () => {
      const processing = processingResult(processingInput({}), snapshot(loaded([sync(1003, 7, 'Invoices')])));
      assert.doesNotMatch(processing, /url /);
    });
  });
});
