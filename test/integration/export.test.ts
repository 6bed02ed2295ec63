/** Export History... (issue #31) in the real extension host: two services, both formats, a filter, the argument form. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { MockFlowSyncServer } from '../../src/mock/server';
import { EXPORT_COLUMNS } from '../../src/export/export';
import { listServices, setUserSetting, startMockApi, testApi, waitFor } from './helpers';

/** Two keys, sentinels like TEST_KEY (never printed; the rig fails if one reaches a log or a file it watches). */
const PRODUCTION_KEY = 'fs_it_SENTINEL_prod_5e6f7a8b';
const STAGING_KEY = 'fs_it_SENTINEL_stag_2c3d4e5f';

const sync = (id: number, flowId: number, name: string, minutesAgo: number) => ({
  id,
  flow_id: flowId,
  status: 'pending',
  created_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
  updated_at: new Date().toISOString(),
  errors: null,
  webhook: false,
  flow: { id: flowId, name },
});

describe('Export History (two services, both formats, the argument form)', function () {
  this.timeout(90_000);
  let production: MockFlowSyncServer;
  let staging: MockFlowSyncServer;
  let dir: string;

  /** Each mock answers `items` for processing; every service refreshes and records who left. */
  const answer = async (items: Map<MockFlowSyncServer, object[]>) => {
    for (const [mock, list] of items) {
      mock.clearFaults();
      mock.inject({ endpoint: 'processing', status: 200, body: JSON.stringify(list) });
    }
    await vscode.commands.executeCommand('flowsync.refreshProcessing');
  };

  before(async () => {
    production = await startMockApi({ apiKey: PRODUCTION_KEY, seed: 13 });
    staging = await startMockApi({ apiKey: STAGING_KEY, seed: 31 });
    const api = await testApi();
    await setUserSetting('autoRefresh', false);
    await listServices(api, [
      { name: 'Production', mock: production, key: PRODUCTION_KEY },
      { name: 'Staging', mock: staging, key: STAGING_KEY },
    ]);
    await waitFor(() => api.services.all.length === 2 && api.services.all.every((s) => s.explorer.status === 'ready'), {
      message: 'both services ready',
    });
    for (const s of api.services.all) await s.history.whenReady();
    // The first load of each service done: a refresh while it is in flight joins it, and its seeded syncs would then
    // leave History after the clear below (seen under load: more than five runs).
    await waitFor(
      () =>
        api.services.all.every(
          (s) => s.explorer.lists.processing.state.loadedAt !== undefined && !s.explorer.lists.processing.state.loading,
        ),
      { message: 'the first load of both services' },
    );
    // Nothing processing, no History; then three runs leave Production and two leave Staging.
    await answer(
      new Map([
        [production, []],
        [staging, []],
      ]),
    );
    for (const s of api.services.all) {
      await s.history.flushed();
      await s.history.clear();
    }
    await answer(
      new Map([
        [
          production,
          [
            sync(700_001, 1, 'Invoices', 12),
            sync(700_002, 2, `=HYPERLINK("http://x") ${PRODUCTION_KEY}`, 3),
            sync(700_003, 1, 'Invoices', 5),
          ],
        ],
        [staging, [sync(800_001, 1, 'Invoices', 20), sync(800_002, 3, 'Payroll, "EU"', 1)]],
      ]),
    );
    await answer(
      new Map([
        [production, []],
        [staging, []],
      ]),
    );
    await waitFor(
      () =>
        api.services.byName('Production')!.history.snapshot.entries.length === 3 &&
        api.services.byName('Staging')!.history.snapshot.entries.length === 2,
      {
        message: 'five runs left: three of Production, two of Staging',
      },
    );
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flowsync-export-it-'));
  });

  after(async () => {
    const api = await testApi();
    for (const s of api.services.all) await s.history.clear();
    production?.clearFaults();
    staging?.clearFaults();
    await setUserSetting('services', undefined);
    await setUserSetting('autoRefresh', undefined);
    await api.reconfigure();
    await Promise.all([production?.close(), staging?.close()]);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const exportTo = async (name: string, format: 'csv' | 'jsonl', extra: object = {}) => {
    const file = path.join(dir, name);
    await vscode.commands.executeCommand('flowsync.exportHistory', {
      uri: vscode.Uri.file(file).toString(),
      format,
      ...extra,
    });
    return file;
  };
  const noKeyIn = (text: string) => {
    for (const key of [PRODUCTION_KEY, STAGING_KEY]) {
      assert.ok(!text.includes(key), 'the key is not in the file');
      for (let i = 0; i + 8 <= key.length; i++) {
        assert.ok(
          !text.toLowerCase().includes(key.slice(i, i + 8).toLowerCase()),
          `no piece of the key (${i}) is in the file`,
        );
      }
    }
  };

  it('CSV: a header, every run of both services with its service, the formula prefix, no key; nothing else left in the folder', async () => {
    const file = await exportTo('all.csv', 'csv');
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.split('\r\n');
    assert.equal(lines[0], `\ufeff${EXPORT_COLUMNS.join(',')}`, 'the UTF-8 byte order mark, then the header');
    assert.equal(lines.at(-1), '', 'the last record ends with CRLF');
    const records = lines.slice(1, -1);
    assert.equal(records.length, 5);
    assert.deepEqual(records.map((r) => r.split(',')[0]).sort(), [
      'Production',
      'Production',
      'Production',
      'Staging',
      'Staging',
    ]);
    assert.ok(
      records.some((r) => r.includes(`"'=HYPERLINK(""http://x"")`)),
      `the formula is prefixed with ' and quoted: ${records.join(' / ')}`,
    );
    assert.ok(
      records.some((r) => r.includes('"Payroll, ""EU"""')),
      'a comma and quotes are quoted',
    );
    noKeyIn(text);
    assert.deepEqual(fs.readdirSync(dir), ['all.csv'], 'no temporary file is left');
  });

  it('JSON Lines: one object a line, numbers as numbers, booleans as booleans; one service and a filter', async () => {
    const all = fs
      .readFileSync(await exportTo('all.jsonl', 'jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(all.length, 5);
    for (const row of all) {
      assert.deepEqual(Object.keys(row), [...EXPORT_COLUMNS]);
      assert.equal(typeof row.sync_id, 'number');
      assert.equal(typeof row.duration_seconds, 'number');
      assert.equal(typeof row.duration_is_lower_bound, 'boolean');
    }
    noKeyIn(JSON.stringify(all));
    const staging = fs
      .readFileSync(await exportTo('staging.jsonl', 'jsonl', { service: 'Staging', filter: 'flow:invoices' }), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      staging.map((r) => [r.service, r.sync_id, r.flow_name]),
      [['Staging', 800_001, 'Invoices']],
    );
  });

  it('a filter keeps the runs the History view keeps: is:watched exports the run History watches', async () => {
    const production = (await testApi()).services.byName('Production')!;
    await production.history.watch('sync', [700_003], true);
    try {
      const rows = fs
        .readFileSync(await exportTo('watched.jsonl', 'jsonl', { filter: 'is:watched' }), 'utf8')
        .split('\n')
        .filter((line) => line.trim())
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.deepEqual(
        rows.map((r) => [r.service, r.sync_id]),
        [['Production', 700_003]],
      );
    } finally {
      await production.history.watch('sync', [700_003], false);
    }
  });

  it('the argument form refuses a file that exists and leaves it as it was', async () => {
    const file = path.join(dir, 'kept.csv');
    fs.writeFileSync(file, 'mine');
    await exportTo('kept.csv', 'csv');
    assert.equal(fs.readFileSync(file, 'utf8'), 'mine');
    assert.ok(!fs.readdirSync(dir).some((n) => n.includes('.tmp')), 'no temporary file is left');
  });
});
