/** History storage, the pure part: one segment per window, merged per origin; see history/store.ts. */
export * from './history/store';
