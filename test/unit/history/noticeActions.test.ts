import * as assert from 'node:assert/strict';
import { noticeActions } from '../../../src/history/noticeActions';
import type { HistoryEntry } from '../../../src/history';

describe("History's notices: each carries the action that fits it (issue #52, item 3)", () => {
  const run = { id: 1003, flowId: 7, raw: '{}' } as unknown as HistoryEntry;
  const text = 'news';

  it('a finished sync: Open as JSON, Open in Browser (a page for syncs), Show History; several: Show History, Show in Timeline', () => {
    assert.deepEqual(noticeActions({ kind: 'finished', text, entries: [run] }, true), [
      'openJson',
      'openInBrowser',
      'showHistory',
    ]);
    assert.deepEqual(noticeActions({ kind: 'finished', text, entries: [run] }, false), ['openJson', 'showHistory']);
    assert.deepEqual(noticeActions({ kind: 'finished', text, entries: [run, run] }, true), [
      'showHistory',
      'showTimeline',
    ]);
  });

  it('a stuck sync: Open in Browser where there is a page, and Show History always (it had no button without a page)', () => {
    const one = { kind: 'stuck', text, sync: { id: 1003, flowId: 7 } } as const;
    assert.deepEqual(noticeActions(one, true), ['openInBrowser', 'showHistory', 'showTimeline']);
    assert.deepEqual(noticeActions(one, false), ['showHistory', 'showTimeline']);
    assert.deepEqual(
      noticeActions({ kind: 'stuck', text }, true),
      ['showHistory', 'showTimeline'],
      'several stuck: no one page',
    );
  });

  it('slower than usual: Show Flow Insights (it had none); History not written: Show Log', () => {
    assert.deepEqual(noticeActions({ kind: 'slower', text }, true), ['showInsights', 'showTimeline']);
    assert.deepEqual(noticeActions({ kind: 'cannotWrite', text }, true), ['showLog']);
  });
});
