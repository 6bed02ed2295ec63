import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { makeEntry } from '../../../src/history/entry';
import {
  EXPORT_CHUNK_ROWS,
  EXPORT_COLUMNS,
  csvCell,
  csvHeader,
  exportChunks,
  exportFileName,
  exportRow,
  jsonlLine,
  type ExportRow,
} from '../../../src/export/export';
import { bounded } from '../../../src/base/inert';
import { LONG_KEY, keyPiece } from '../helpers/keyPieces';
import { NOW } from '../helpers/items';

const MIN = 60_000;
const entry = (over: Partial<Parameters<typeof makeEntry>[0]> = {}) =>
  makeEntry({
    id: 1003,
    flowId: 7,
    flowName: 'Invoices, EU',
    createdAt: new Date(NOW - 10 * MIN).toISOString(),
    firstSeen: NOW - 9 * MIN,
    lastSeen: NOW - 2 * MIN,
    leftAt: NOW - MIN,
    raw: { id: 1003, status: 'pending', errors: null, webhook: true },
    ...over,
  });
const plain = (text: string, max: number) => bounded(text, max);

/** A reference RFC 4180 reader: records of cells. */
function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i += 2;
    } else if (quoted && c === '"') {
      quoted = false;
      i++;
    } else if (quoted) {
      cell += c;
      i++;
    } else if (c === '"' && cell === '') {
      quoted = true;
      i++;
    } else if (c === ',' || (c === '\r' && text[i + 1] === '\n')) {
      cells.push(cell);
      cell = '';
      if (c === ',') i++;
      else {
        records.push(cells);
        cells = [];
        i += 2;
      }
    } else {
      cell += c;
      i++;
    }
  }
  assert.equal(cell, '', 'the text ends with a line break');
  return records;
}

describe('Export History: the rows, CSV and JSON Lines', () => {
  it('the columns, in order, in both formats', () => {
    assert.deepEqual(
      [...EXPORT_COLUMNS],
      [
        'service',
        'flow_id',
        'flow_name',
        'sync_id',
        'created_at',
        'first_seen',
        'left_at',
        'duration_seconds',
        'duration_is_lower_bound',
        'had_errors',
        'webhook',
        'last_status',
      ],
    );
    assert.equal(csvHeader(), `${EXPORT_COLUMNS.join(',')}\r\n`);
    assert.deepEqual(Object.keys(JSON.parse(jsonlLine(exportRow('Production', entry(), plain)))), [...EXPORT_COLUMNS]);
  });

  it('a run as a row: ISO times in UTC, duration in seconds, the item\u2019s flags', () => {
    const row = exportRow('Production', entry(), plain);
    assert.deepEqual(row, {
      service: 'Production',
      flow_id: 7,
      flow_name: 'Invoices, EU',
      sync_id: 1003,
      created_at: '2026-11-22T11:50:00.000Z',
      first_seen: '2026-11-22T11:51:00.000Z',
      left_at: '2026-11-22T11:59:00.000Z',
      duration_seconds: 510,
      duration_is_lower_bound: false,
      had_errors: false,
      webhook: true,
      last_status: 'pending',
    });
    const [header, record] = readCsv(csvHeader() + exportChunks('csv', [row]).next().value!.slice(csvHeader().length));
    assert.deepEqual(header, [...EXPORT_COLUMNS]);
    assert.deepEqual(record, [
      'Production',
      '7',
      'Invoices, EU',
      '1003',
      '2026-11-22T11:50:00.000Z',
      '2026-11-22T11:51:00.000Z',
      '2026-11-22T11:59:00.000Z',
      '510',
      'false',
      'false',
      'true',
      'pending',
    ]);
  });

  it('without the item (too large when it left), the flags are unknown: null in JSON Lines, empty in CSV', () => {
    const row = exportRow('P', entry({ raw: undefined }), plain);
    assert.equal(row.had_errors, null);
    assert.equal(row.webhook, null);
    assert.equal(row.last_status, null);
    assert.match([...exportChunks('csv', [row])].join(''), /,,,\r\n$/);
    assert.equal(exportRow('P', entry({ raw: { errors: [{ message: 'x' }] } }), plain).had_errors, true);
  });

  it('a created_at that is not a time is kept as text; the duration is then a lower bound', () => {
    const row = exportRow('P', entry({ createdAt: 'yesterday' }), plain);
    assert.equal(row.created_at, 'yesterday');
    assert.equal(row.duration_is_lower_bound, true);
  });

  it('the key is never in the file: service text goes through the mask', () => {
    const mask = (text: string, max: number) => bounded(text, max, LONG_KEY);
    const row = exportRow(
      `svc ${LONG_KEY}`,
      entry({ flowName: `Invoices ${LONG_KEY}`, raw: { status: LONG_KEY.slice(3, 20) } }),
      mask,
    );
    const text = [...exportChunks('csv', [row]), ...exportChunks('jsonl', [row])].join('');
    assert.equal(keyPiece(text, LONG_KEY), undefined, text);
  });

  it('CSV: a formula is prefixed with \u2019, quotes doubled, commas and line breaks quoted', () => {
    assert.equal(csvCell('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
    assert.equal(csvCell('+1'), "'+1");
    assert.equal(csvCell('-1'), "'-1");
    assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvCell('\tx'), "'\tx");
    assert.equal(csvCell('\rx'), `"'\rx"`);
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('a\nb'), '"a\nb"');
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell(12), '12');
    assert.equal(csvCell(false), 'false');
    assert.equal(csvCell(null), '');
  });

  it('every text cell goes through the clean-up of all service text: no bidi override, tag character, NUL or line break', () => {
    const hostile = 'Inv\u202eoices\u{E0041}\u{E0042}\u0000 EU\n\u200bnext';
    const row = exportRow(
      `Prod\u202e\u0000`,
      entry({ flowName: hostile, createdAt: `yester\u202eday\u0000`, raw: { status: 'pend\u{E0067}ing\u0007' } }),
      plain,
    );
    for (const cell of [row.service, row.flow_name, row.created_at, row.last_status ?? '']) {
      assert.doesNotMatch(
        cell,
        // eslint-disable-next-line no-control-regex
        /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f]|[\u{E0000}-\u{E007F}]/u,
        cell,
      );
    }
    assert.equal(row.flow_name, 'Invoices EU next');
    assert.equal(row.service, 'Prod');
    assert.equal(row.last_status, 'pending');
    assert.equal(row.created_at, 'yesterday');
    const text = [...exportChunks('csv', [row]), ...exportChunks('jsonl', [row])].join('');
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(text, /[\u0000\u202e]|[\u{E0000}-\u{E007F}]/u);
  });

  it('CSV: the formula check looks past leading whitespace and invisible characters', () => {
    assert.equal(csvCell(' =1+1'), "' =1+1");
    assert.equal(csvCell('\u00a0=1+1'), "'\u00a0=1+1");
    assert.equal(csvCell('\n=1+1'), `"'\n=1+1"`);
    assert.equal(csvCell('\u200b=1+1'), "'\u200b=1+1");
    assert.equal(csvCell('\u202e\u200d +A1'), "'\u202e\u200d +A1");
    assert.equal(csvCell(' \t-2'), "' \t-2");
    assert.equal(csvCell('  @x'), "'  @x");
    assert.equal(csvCell(' plain'), ' plain');
    // and through a row: the clean-up trims, the check prefixes
    for (const name of [' =1+1', '\u00a0=1+1', '\n=1+1', '\u200b=1+1']) {
      const line = exportChunks('csv', [exportRow('P', entry({ flowName: name }), plain)]).next().value!;
      assert.equal(readCsv(line)[1][2], "'=1+1", JSON.stringify(name));
    }
  });

  it('property: any text reads back from the CSV as written, a formula start behind \u2019', () => {
    const hostile = fc.string({
      unit: fc.constantFrom(
        ...['=', '+', '-', '@', '\t', '\r', '\n', '"', ',', "'", 'a', 'é', ' ', '\u202e', '\u0000'],
        ...['\u00a0', '\u200b', '\u{E0041}', '\uff1d'],
      ),
    });
    // a formula's start: = + - @ (or full-width) after any whitespace or invisible character; or a tab or CR first
    const formula = /^(?:[\t\r]|[\s\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]*[=+\-@\uff1d\uff0b\uff0d\uff20])/u;
    fc.assert(
      fc.property(fc.array(hostile, { minLength: 1, maxLength: 6 }), (texts) => {
        const line = `${texts.map(csvCell).join(',')}\r\n`;
        const [cells] = readCsv(line);
        assert.deepEqual(
          cells,
          texts.map((t) => (formula.test(t) ? `'${t}` : t)),
        );
        for (const cell of cells) assert.ok(!/^[=+\-@\t\r]/.test(cell) && !formula.test(cell), cell);
      }),
    );
  });

  it('property: JSON Lines round trip, one object a line', () => {
    const text = fc.string({ unit: 'binary', maxLength: 20 });
    const row = fc.record<ExportRow>({
      service: text,
      flow_id: fc.nat(),
      flow_name: text,
      sync_id: fc.nat(),
      created_at: text,
      first_seen: text,
      left_at: text,
      duration_seconds: fc.nat().map((n) => n / 1000),
      duration_is_lower_bound: fc.boolean(),
      had_errors: fc.option(fc.boolean(), { nil: null }),
      webhook: fc.option(fc.boolean(), { nil: null }),
      last_status: fc.option(text, { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 5 }), (rows) => {
        const lines = [...exportChunks('jsonl', rows)].join('').split('\n');
        assert.equal(lines.pop(), '');
        assert.deepEqual(
          lines.map((l) => JSON.parse(l)),
          rows.map((r) => ({ ...r })),
        );
      }),
      { numRuns: 50 },
    );
  });

  it('streams in chunks: the header once, rows made only as chunks are asked for', () => {
    let made = 0;
    function* rows() {
      for (let i = 0; i < EXPORT_CHUNK_ROWS * 2 + 5; i++) {
        made++;
        yield exportRow('P', entry({ id: i }), plain);
      }
    }
    const chunks = exportChunks('csv', rows());
    const first = chunks.next().value!;
    assert.equal(made, EXPORT_CHUNK_ROWS);
    assert.ok(first.startsWith(csvHeader()));
    const rest = [...chunks];
    assert.equal(rest.length, 2);
    assert.equal(readCsv(first + rest.join('')).length, 1 + EXPORT_CHUNK_ROWS * 2 + 5);
    assert.deepEqual([...exportChunks('jsonl', [])], []);
    assert.deepEqual([...exportChunks('csv', [])], [csvHeader()]);
  });

  it('the default file name', () => {
    assert.equal(exportFileName('Production', NOW, 'csv'), 'flowsync-history-production-2026-11-22.csv');
    assert.equal(
      exportFileName('../../etc/Prod\u00e9 EU', NOW, 'jsonl'),
      'flowsync-history-etc-prode-eu-2026-11-22.jsonl',
    );
    assert.equal(exportFileName(undefined, NOW, 'csv'), 'flowsync-history-all-2026-11-22.csv');
    assert.equal(exportFileName('\u202e', NOW, 'csv'), 'flowsync-history-service-2026-11-22.csv');
  });
});
