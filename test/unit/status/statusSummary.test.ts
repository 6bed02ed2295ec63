import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { servicesSummary, statusSummary } from '../../../src/status/statusSummary';
import { pinnedLines } from '../../../src/history/pins';
import type { FlowSync } from '../../../src/api/types';
import type { ListState } from '../../../src/lists/refresh';
import { NOW, sync } from '../helpers/items';

const now = NOW;
/** A processing sync of flow `flow` (the flow's id is the sync's). */
const item = (id: number, flow: string) => sync(id, id, flow);

describe('statusSummary', () => {
  it('shows the count, spinning while anything processes, naming the flows', () => {
    const s = statusSummary(
      'ready',
      undefined,
      { items: [item(1, 'Invoices'), item(2, 'Payroll')], dropped: 0, loading: false, failures: 0, loadedAt: now },
      undefined,
      now,
    );
    assert.equal(s.text, '$(sync~spin) 2 processing');
    assert.match(s.tooltip, /Invoices: 1/);
    assert.match(s.tooltip, /Payroll: 1/);
    assert.equal(s.action, 'focus');
    assert.equal(s.warning, false);
    assert.equal(
      statusSummary('ready', undefined, { items: [], dropped: 0, loading: false, failures: 0 }, undefined, now).text,
      '$(check) 0 processing',
    );
  });

  it('asks for a key, or warns with the error after a failed refresh', () => {
    assert.equal(
      statusSummary('noKey', undefined, { dropped: 0, loading: false, failures: 0 }, undefined, now).action,
      'setApiKey',
    );
    const error = new ApiError('network', 'Could not reach the service.');
    const s = statusSummary(
      'ready',
      undefined,
      { items: [item(1, 'A')], dropped: 0, loading: false, failures: 1, error, loadedAt: now },
      undefined,
      now,
    );
    assert.equal(s.warning, true);
    assert.match(s.tooltip, /Could not reach the service\\\./);
    assert.match(s.text, /warning\) 1 processing/);
  });

  it('before any setting: asks for the URL; a refused URL or an unreadable keyring is a warning, with the detail escaped', () => {
    const empty = { dropped: 0, loading: false, failures: 0 };
    const noUrl = statusSummary('noUrl', undefined, empty, undefined, now);
    assert.deepEqual([noUrl.text, noUrl.action, noUrl.warning], ['$(gear) Flow Sync: set up', 'setBaseUrl', false]);
    assert.match(noUrl.tooltip, /service URL/);
    const invalid = statusSummary('invalidUrl', 'Use https: [x](command:y)', empty, undefined, now);
    assert.deepEqual([invalid.action, invalid.warning], ['setBaseUrl', true]);
    assert.equal(invalid.tooltip, 'Use https\\: \\[x\\] \\(command\\:y\\)');
    const secrets = statusSummary('secretsUnavailable', 'keyring is locked', empty, undefined, now);
    assert.deepEqual(
      [secrets.text, secrets.action, secrets.warning, secrets.tooltip],
      ['$(key) Flow Sync: Set API Key', 'setApiKey', true, 'keyring is locked'],
    );
  });

  it('before the first answer: a spinner without a count; a rejected key asks for a new one', () => {
    assert.equal(
      statusSummary('ready', undefined, { dropped: 0, loading: true, failures: 0 }, undefined, now).text,
      '$(sync~spin) Flow Sync',
    );
    const error = new ApiError('unauthorized', 'The service rejected the API key (HTTP 401).');
    const s = statusSummary('ready', undefined, { dropped: 0, loading: false, failures: 1, error }, undefined, now);
    assert.equal(s.text, '$(warning) Flow Sync');
    assert.equal(s.action, 'setApiKey');
    assert.doesNotMatch(s.tooltip, /Last loaded/, 'nothing was ever loaded');
  });

  it('names at most ten flows, escapes their names, and counts the rest', () => {
    const items = Array.from({ length: 12 }, (_, i) => item(i + 1, `Flow *${String(i + 1).padStart(2, '0')}*`));
    const s = statusSummary('ready', undefined, { items, dropped: 0, loading: false, failures: 0 }, undefined, now);
    assert.equal(s.tooltip.split('\n').filter((line) => line.startsWith('- Flow')).length, 10);
    assert.match(s.tooltip, /^- Flow \\\*01\\\*: 1$/m);
    assert.doesNotMatch(s.tooltip, /11\\\*: 1/);
    assert.match(s.tooltip, /- and 2 more flows$/);
  });

  it("History's extras: asked only once the service is set up; stuck syncs counted and named, the sparkline shown", () => {
    let asked = 0;
    const extras = () => {
      asked++;
      return { stuck: [item(7, 'Payroll').value], sparkline: '▁▂▃' };
    };
    const empty = { dropped: 0, loading: false, failures: 0 };
    for (const status of ['noUrl', 'invalidUrl', 'noKey', 'secretsUnavailable'] as const) {
      statusSummary(status, undefined, empty, extras, now);
    }
    assert.equal(asked, 0, 'no pass over History for a status bar that says "set up"');
    const s = statusSummary(
      'ready',
      undefined,
      { ...empty, items: [item(7, 'Payroll'), item(8, 'Invoices')], loadedAt: now },
      extras,
      now,
    );
    assert.equal(asked, 1);
    assert.equal(s.text, '$(warning) 2 processing, 1 stuck');
    assert.match(s.tooltip, /\*\*Stuck\*\*\n- #7 \(Payroll\)/);
    assert.match(s.tooltip, /Last hour: ▁▂▃\n\nLast loaded at /);
    assert.equal(s.warning, true);
  });

  it('a stuck sync whose created_at cannot be true (1970, the future) is listed without an age', () => {
    const empty = { dropped: 0, loading: false, failures: 0 };
    for (const created_at of ['1970-01-01T00:00:00.000Z', new Date(now + 10 * 3600_000).toISOString()]) {
      const stuck = { ...item(7, 'Payroll').value, created_at };
      const s = statusSummary(
        'ready',
        undefined,
        { ...empty, items: [{ value: stuck, raw: {} }], loadedAt: now },
        () => ({ stuck: [stuck], sparkline: '' }),
        now,
      );
      assert.match(s.tooltip, /- #7 \(Payroll\), started unknown time$/m, created_at);
    }
  });
});

describe('servicesSummary (several services)', () => {
  const state = (items: number, o: Partial<ListState<FlowSync>> = {}): ListState<FlowSync> => ({
    items: Array.from({ length: items }, (_, i) => item(i + 1, `Flow ${i}`)),
    dropped: 0,
    loading: false,
    failures: 0,
    loadedAt: now,
    ...o,
  });

  it('the total over the services whose data is shown; the hover lists each with its count', () => {
    const s = servicesSummary(
      [
        { name: 'Production', status: 'ready', detail: undefined, state: state(4), stuck: [] },
        { name: 'Staging', status: 'ready', detail: undefined, state: state(3), stuck: [item(9, 'Slow').value] },
      ],
      now,
    );
    assert.equal(s.text, '$(warning) 7 processing, 1 stuck');
    assert.match(s.tooltip, /- Production: 4 processing/);
    assert.match(s.tooltip, /- Staging: 3 processing, 1 stuck/);
    assert.equal(s.accessibleLabel, '7 flow syncs processing, 1 stuck, 2 services');
    assert.equal(s.action, 'focus');
  });

  it('the hover lists each service’s pinned flows with their state, under its name', () => {
    const s = servicesSummary(
      [
        {
          name: 'Production',
          status: 'ready',
          detail: undefined,
          state: state(4),
          stuck: [],
          pinned: pinnedLines([{ name: 'Nightly export', state: 'idle' }]),
        },
        { name: 'Staging', status: 'ready', detail: undefined, state: state(3), stuck: [], pinned: [] },
        {
          name: 'QA',
          status: 'noKey',
          detail: undefined,
          state: state(0),
          stuck: [],
          pinned: pinnedLines([{ name: 'X', state: 'idle' }]),
        },
      ],
      now,
    );
    assert.match(s.tooltip, /\*\*Pinned\*\*\n- Production › Nightly export: idle/);
    assert.doesNotMatch(s.tooltip, /QA › X/, 'a service without data says nothing of its pins');
  });

  it("one service's trouble is its own: the others' counts stay; the hover says which one and why", () => {
    const error = new ApiError('http', 'The service answered with HTTP 500 [x](command:evil)');
    const s = servicesSummary(
      [
        { name: 'Production', status: 'ready', detail: undefined, state: state(4), stuck: [] },
        {
          name: 'Staging',
          status: 'ready',
          detail: undefined,
          state: state(0, { items: undefined, error }),
          stuck: [],
        },
        { name: 'Dev *x*', status: 'noKey', detail: undefined, state: state(0, { items: undefined }), stuck: [] },
      ],
      now,
    );
    assert.equal(s.text, '$(warning) 4 processing');
    assert.equal(s.warning, true);
    assert.match(
      s.tooltip,
      /- Staging: no data · \$\(warning\) The service answered with HTTP 500 \\\[x\\\] ?\\\(command\\:evil\\\)/,
    );
    assert.match(s.tooltip, /- Dev \\\*x\\\*: no data · \$\(warning\) no API key/, 'names are escaped Markdown');
    assert.equal(s.accessibleLabel, '4 flow syncs processing, 3 services, 2 services have a problem');
  });

  it('nothing shown yet: no count claimed', () => {
    const s = servicesSummary(
      [
        {
          name: 'A',
          status: 'ready',
          detail: undefined,
          state: state(0, { items: undefined, loadedAt: undefined }),
          stuck: [],
        },
      ],
      now,
    );
    assert.equal(s.text, '$(sync~spin) Flow Sync');
  });
});

describe('statusSummary: pinned flows', () => {
  it('the hover lists the pinned flows with their state, service text escaped', () => {
    const s = statusSummary(
      'ready',
      undefined,
      { items: [item(1, 'Invoices')], dropped: 0, loading: false, failures: 0, loadedAt: now },
      () => ({
        stuck: [],
        pinned: pinnedLines([
          { name: 'Nightly *export*', state: 'idle' },
          { name: 'Invoices', state: 'processing 1, 1 with errors' },
        ]),
      }),
      now,
    );
    assert.match(s.tooltip, /\*\*Pinned\*\*\n- Nightly \\\*export\\\*: idle\n- Invoices: processing 1, 1 with errors/);
  });
});

describe('the status bar hover names the syncs with errors', () => {
  const ERR = [{ message: 'E_TIMEOUT: upstream took too long' }];
  const state = (items: ReturnType<typeof sync>[]): ListState<FlowSync> => ({
    items,
    dropped: 0,
    loading: false,
    failures: 0,
    loadedAt: now,
  });

  it('one service: "With errors", each sync by id and flow (escaped), at most ten, the rest counted; none without', () => {
    const items = [
      sync(1003, 7, 'Invoices', { errors: ERR }),
      sync(1004, 8, 'Payroll'),
      ...Array.from({ length: 11 }, (_, i) => sync(2000 + i, 9, '*Bold* [x](command:evil)', { errors: 'E' })),
    ];
    const tip = statusSummary('ready', undefined, state(items), undefined, now).tooltip;
    assert.match(tip, /\*\*With errors\*\*\n- #1003 \(Invoices\)\n/);
    assert.ok(!tip.includes('#1004'), tip);
    assert.ok(!tip.includes('[x](command:'), tip);
    assert.match(tip, /- #2008 \(\\\*Bold\\\*/);
    assert.match(tip, /- and 2 more/);
    const clean = statusSummary('ready', undefined, state([sync(1004, 8, 'Payroll')]), undefined, now).tooltip;
    assert.ok(!clean.includes('With errors'), clean);
  });

  it('several services: each service that has some gets its own section, by name', () => {
    const tip = servicesSummary(
      [
        { name: 'Production', status: 'ready', detail: undefined, state: state([sync(1, 1, 'A')]), stuck: [] },
        {
          name: 'Staging',
          status: 'ready',
          detail: undefined,
          state: state([sync(7, 2, 'Invoices', { errors: ERR })]),
          stuck: [],
        },
      ],
      now,
    ).tooltip;
    assert.match(tip, /\*\*With errors in Staging\*\*\n- #7 \(Invoices\)/);
    assert.ok(!tip.includes('With errors in Production'), tip);
  });
});
