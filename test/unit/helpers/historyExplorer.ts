import type { FlowSync, Item } from '../../../src/api/types';
import { Emitter } from '../../../src/base/events';
import type { HistoryExplorer } from '../../../src/history/historyService';
import type { ListState } from '../../../src/lists/refresh';
import type { FakeClock } from './fakeClock';

const SCOPE = 'https://flowsync.example.com';
const KEY = 'fs_test_0123456789abcdef';

/** The Explorer as History reads it: its scope, key and Processing list, which a test answers. */
export class FakeExplorer implements HistoryExplorer {
  historyScope: string | undefined = SCOPE;
  /** The service's key in the team's store (team History). */
  serviceKey = SCOPE;
  teamId = '';
  keyToHide: string | undefined = KEY;
  private readonly statusChanges = new Emitter<void>();
  private readonly processingChanges = new Emitter<void>();
  readonly lists: { processing: { state: ListState<FlowSync>; onDidChange: (l: () => void) => { dispose(): void } } };

  constructor(private readonly clock: FakeClock) {
    this.lists = {
      processing: {
        state: { dropped: 0, loading: false, failures: 0 },
        onDidChange: (listener) => this.processingChanges.event(listener),
      },
    };
  }

  mentionsKey(text: string): boolean {
    return text.includes(KEY);
  }

  onDidChangeStatus(listener: () => void) {
    return this.statusChanges.event(listener);
  }

  /** A successful processing answer, now (`adopted`: another window's, shared). */
  answer(items: Item<FlowSync>[], { adopted = false } = {}): void {
    this.lists.processing.state = {
      items,
      loadedAt: this.clock.now(),
      dropped: 0,
      loading: false,
      failures: 0,
      adopted,
    };
    this.processingChanges.fire();
  }

  /** Another service entry (a new URL or team filter): History follows the scope. */
  rescope(scope: string | undefined): void {
    this.historyScope = scope;
    this.statusChanges.fire();
  }
}
