import { HistoryCore, type HistoryLogStore } from '../../../src/history/historyService';
import type { TeamSlot } from '../../../src/history/teamPort';
import type { FakeClock } from './fakeClock';
import { FakeExplorer } from './historyExplorer';

/**
 * The Histories of several services of one window, each joined to `slot` and shared (the team History tests and the
 * bench's product path: bench/lib/teamHistoryProduct.mjs): `openLog(index)` is each one's log store.
 */
export function joinedHistories(
  clock: FakeClock,
  slot: TeamSlot,
  services: readonly string[],
  openLog: (index: number, folder: string) => HistoryLogStore,
  historyDays = 30,
): HistoryCore[] {
  return services.map((service, index) => {
    const explorer = new FakeExplorer(clock);
    explorer.historyScope = service;
    explorer.serviceKey = service;
    return new HistoryCore({
      explorer,
      clock,
      settings: () => ({ historyDays, stuckAfterMinutes: 30, notifyWhenFinished: 'all' }),
      watches: { read: () => undefined, write: async () => undefined },
      log: { debug: () => undefined, info: () => undefined, warn: () => undefined },
      notify: () => undefined,
      openLog: (folder) => openLog(index, folder),
      team: { slot, shared: () => true },
    });
  });
}
