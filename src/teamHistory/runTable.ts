import { MAX_RUN_MS } from './teamRows';

/*
 * The columns TeamRuns keeps its runs in (pure): one slot per merged run, in typed arrays grown by doubling (never
 * past the runs allowed), so 50,000 runs cost a few typed arrays instead of 50,000 objects, their strings and a Map.
 *
 * A slot: the sync id; created_at as epoch ms when it is the canonical ISO form ("2026-11-22T12:00:00.000Z", its text
 * made again from the ms when a row is shown) or else its text, kept aside; the (flow id, flow name) pair as an index
 * into a table of the pairs seen (a service has a few hundred flows); the latest sighting (ms) with the earliest
 * sighting and the span's end as offsets from it (a run spans at most MAX_RUN_MS: they fit 32 bits); who saw it (a
 * bit per installation) and whether any saw errors; its absences after the latest sighting: the earliest as an offset
 * from the latest sighting, the others as the gaps between them (varints in a shared byte pool: an honest run has
 * about one per observer, most of them seconds apart, 2 bytes each). An index (open addressing on the sync id and
 * created_at) finds the slots of one sync.
 */

/** Absences kept per run (the earliest after its latest sighting): an honest run has one per observer. */
export const MAX_ABSENCES = 32;
/** Bytes one run's absences can take in the pool: the earliest in its column, the others 5 bytes at most each. */
const MAX_ABSENCE_BYTES = (MAX_ABSENCES - 1) * 5;
const FIRST_CAPACITY = 256;
const HAD_ERRORS = 1;
const LIVE = 2;

/** The text of a created_at kept as ms (see canonicalTime in base/plausibleTime.ts). */
const canonicalText = (ms: number) => new Date(ms).toISOString();

const HI = 4294967296;

/** A 32-bit hash of a sync id and its created_at (ms, or the text's own hash when it is not canonical). */
function hashOf(id: number, created: number, text: string | undefined): number {
  let h = Math.imul((id >>> 0) ^ Math.imul(Math.floor(id / HI) | 0, 0x27d4eb2d), 0x9e3779b1);
  if (text === undefined) {
    h ^= Math.imul((created >>> 0) ^ Math.imul(Math.floor(created / HI) | 0, 0x165667b1), 0x85ebca6b);
  } else {
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}

/** What a slot holds, as RunTable writes it (absences ascending, after lastSeen, at most MAX_ABSENCES). */
export interface RunFields {
  flowId: number;
  flowName: string;
  firstSeen: number;
  lastSeen: number;
  end: number;
  seen: number;
  hadErrors: boolean;
}

/** The runs of one service in columns (see the top of this file). Slots are reused once freed. */
export class RunTable {
  private capacity = 0;
  /** Slots handed out so far (live or free). */
  private used = 0;
  private live = 0;
  private readonly freed: number[] = [];

  private id = new Float64Array(0);
  /** created_at as epoch ms; NaN when its text is not canonical (then in `texts`). */
  private created = new Float64Array(0);
  private flow = new Int32Array(0);
  private last = new Float64Array(0);
  /** lastSeen − firstSeen. */
  private back = new Uint32Array(0);
  /** end − lastSeen (below 0 for a row whose leaving is before its last sighting: a stale answer's). */
  private ahead = new Int32Array(0);
  /** The earliest absence − lastSeen; 0: none. */
  private absence = new Uint32Array(0);
  /** Where the slot's further absences are in the pool, and how many bytes they take. */
  private absAt = new Int32Array(0);
  private absLen = new Uint8Array(0);
  private bits = new Int32Array(0);
  private flags = new Uint8Array(0);
  /** The created_at texts that are not canonical, by slot. */
  private readonly texts = new Map<number, string>();

  private pool = new Uint8Array(0);
  private poolUsed = 0;
  private poolGarbage = 0;

  /** The (flow id, flow name) pairs, by index; `pairs` finds one. */
  private flowIds: number[] = [];
  private flowNames: string[] = [];
  private pairs = new Map<number, Map<string, number>>();

  /** Slot + 1 at each place of the open-addressing index; 0 empty. */
  private index = new Int32Array(0);
  private mask = -1;

  /** Changes whenever a slot changes (a sorted view of the slots is made again then). */
  version = 0;

  constructor(private readonly maxSlots: number) {}

  /** Runs held. */
  get size(): number {
    return this.live;
  }

  /** Slots handed out (some maybe free): every live slot is below it. */
  get slots(): number {
    return this.used;
  }

  isLive(slot: number): boolean {
    return (this.flags[slot] & LIVE) !== 0;
  }

  /** The slots of one sync (id and created_at: `created` its canonicalTime), in `out` (cleared first). */
  slotsOf(id: number, created: number, text: string, out: number[]): number[] {
    out.length = 0;
    if (this.live === 0) return out;
    const canonical = created === created;
    let at = hashOf(id, created, canonical ? undefined : text) & this.mask;
    for (let s = this.index[at]; s !== 0; s = this.index[(at = (at + 1) & this.mask)]) {
      const slot = s - 1;
      if (this.id[slot] !== id) continue;
      if (canonical ? this.created[slot] === created : this.texts.get(slot) === text) out.push(slot);
    }
    return out;
  }

  /** A new slot for a run of the sync (id, created_at); its fields are written with `write`. */
  add(id: number, created: number, text: string): number {
    let slot = this.freed.pop();
    if (slot === undefined) {
      if (this.used === this.capacity) this.grow();
      slot = this.used++;
    }
    this.live++;
    this.id[slot] = id;
    this.created[slot] = created;
    if (created !== created) this.texts.set(slot, text);
    this.flags[slot] = LIVE;
    this.absence[slot] = 0;
    this.absLen[slot] = 0;
    this.insert(slot);
    this.version++;
    return slot;
  }

  /** Frees a slot (its run merged into another, or forgotten). */
  remove(slot: number): void {
    this.unindex(slot);
    this.free(this.absLen[slot]);
    this.absLen[slot] = 0;
    this.texts.delete(slot);
    this.flags[slot] = 0;
    this.freed.push(slot);
    this.live--;
    this.version++;
  }

  syncId(slot: number): number {
    return this.id[slot];
  }

  /** The live slots into `slots` and their span's end into `ends` (each `size` long), in slot order. */
  liveEnds(slots: Int32Array, ends: Float64Array): void {
    const flags = this.flags;
    for (let slot = 0, j = 0; slot < this.used; slot++) {
      if ((flags[slot] & LIVE) === 0) continue;
      slots[j] = slot;
      ends[j++] = this.last[slot] + this.ahead[slot];
    }
  }

  /** The slot's created_at text. */
  createdAt(slot: number): string {
    const ms = this.created[slot];
    return ms === ms ? canonicalText(ms) : (this.texts.get(slot) ?? '');
  }

  /** The slot's created_at as canonicalTime gives it (NaN: not canonical). */
  createdMs(slot: number): number {
    return this.created[slot];
  }

  flowId(slot: number): number {
    return this.flowIds[this.flow[slot]];
  }

  flowName(slot: number): string {
    return this.flowNames[this.flow[slot]];
  }

  lastSeen(slot: number): number {
    return this.last[slot];
  }

  firstSeen(slot: number): number {
    return this.last[slot] - this.back[slot];
  }

  end(slot: number): number {
    return this.last[slot] + this.ahead[slot];
  }

  seen(slot: number): number {
    return this.bits[slot];
  }

  hadErrors(slot: number): boolean {
    return (this.flags[slot] & HAD_ERRORS) !== 0;
  }

  /** The slot's absences, ascending, into `out` (from 0); how many. */
  absences(slot: number, out: Float64Array | number[]): number {
    const first = this.absence[slot];
    if (first === 0) return 0;
    let t = this.last[slot] + first;
    out[0] = t;
    let n = 1;
    const endAt = this.absAt[slot] + this.absLen[slot];
    const pool = this.pool;
    for (let at = this.absAt[slot]; at < endAt;) {
      let d = 0;
      let shift = 1;
      let b: number;
      do {
        b = pool[at++];
        d += (b & 0x7f) * shift;
        shift *= 128;
      } while (b & 0x80);
      t += d;
      out[n++] = t;
    }
    return n;
  }

  /** The latest absence of the slot; -Infinity when it has none. */
  latestAbsence(slot: number): number {
    if (this.absence[slot] === 0) return -Infinity;
    if (this.absLen[slot] === 0) return this.last[slot] + this.absence[slot];
    const n = this.absences(slot, scratch);
    return scratch[n - 1];
  }

  /**
   * Writes a slot's fields: `absences` ascending (the first `n`), each after `f.lastSeen`; the run spans at most
   * MAX_RUN_MS (the caller's rule: meets()), so the offsets fit their columns.
   */
  write(slot: number, f: RunFields, absences: Float64Array | readonly number[], n: number): void {
    const last = f.lastSeen;
    if (!(f.firstSeen <= last && last - f.firstSeen <= 2 * MAX_RUN_MS && Math.abs(f.end - last) <= 2 * MAX_RUN_MS)) {
      throw new RangeError('a run spans more than MAX_RUN_MS');
    }
    this.last[slot] = last;
    this.back[slot] = last - f.firstSeen;
    this.ahead[slot] = f.end - last;
    this.bits[slot] = f.seen;
    this.flags[slot] = LIVE | (f.hadErrors ? HAD_ERRORS : 0);
    this.setFlow(slot, f.flowId, f.flowName);
    this.absence[slot] = n ? absences[0] - last : 0;
    let len = 0;
    for (let i = 1; i < n; i++) {
      let d = absences[i] - absences[i - 1];
      while (d >= 128) {
        bytes[len++] = (d % 128) | 0x80;
        d = Math.floor(d / 128);
      }
      bytes[len++] = d;
    }
    this.writeBytes(slot, len);
    this.version++;
  }

  /** Sets the slot's flow, interning the pair. */
  private setFlow(slot: number, flowId: number, flowName: string): void {
    const had = this.flow[slot];
    if (had < this.flowIds.length && this.flowIds[had] === flowId && this.flowNames[had] === flowName) return;
    this.flow[slot] = this.internFlow(flowId, flowName);
  }

  /** The slot's absence bytes (the first `len` of `bytes`) into the pool: in place when they fit its room. */
  private writeBytes(slot: number, len: number): void {
    const had = this.absLen[slot];
    if (len === 0 || roomOf(len) !== roomOf(had)) {
      this.free(had);
      this.absLen[slot] = 0; // its old room is not copied if allocate compacts
      if (len > 0) this.absAt[slot] = this.allocate(roomOf(len));
    }
    this.pool.set(bytes.subarray(0, len), this.absAt[slot]);
    this.absLen[slot] = len;
  }

  private free(len: number): void {
    if (len > 0) this.poolGarbage += roomOf(len);
  }

  private allocate(room: number): number {
    if (this.poolUsed + room > this.pool.length) {
      if (this.poolGarbage * 8 >= this.poolUsed) this.compact(room, 1.125);
      if (this.poolUsed + room > this.pool.length) {
        const bigger = new Uint8Array(Math.max(1024, Math.ceil((this.poolUsed + room) * 1.25)));
        bigger.set(this.pool.subarray(0, this.poolUsed));
        this.pool = bigger;
      }
    }
    const at = this.poolUsed;
    this.poolUsed += room;
    return at;
  }

  /** The pool without the room of absences no longer held (copied in slot order), `room` more times `spare`. */
  private compact(room: number, spare: number): void {
    const live = this.poolUsed - this.poolGarbage;
    const pool = new Uint8Array(Math.ceil((live + room) * spare));
    const old = this.pool;
    let at = 0;
    for (let slot = 0; slot < this.used; slot++) {
      const len = this.absLen[slot];
      if (len === 0) continue;
      const from = this.absAt[slot];
      for (let i = 0; i < len; i++) pool[at + i] = old[from + i];
      this.absAt[slot] = at;
      at += roomOf(len);
    }
    this.pool = pool;
    this.poolUsed = at;
    this.poolGarbage = 0;
  }

  /**
   * Drops what changes left behind when it is more than an eighth: the pool's freed and spare room, the flow pairs no
   * run uses. Called when runs are forgotten (TeamRuns.forgetBefore); reads compact the pool as it fills.
   */
  settle(): void {
    if ((this.pool.length - this.poolUsed + this.poolGarbage) * 8 > this.pool.length) this.compact(0, 1);
    if (this.flowIds.length > 2 * this.live + 1024) {
      const ids = this.flowIds;
      const names = this.flowNames;
      this.flowIds = [];
      this.flowNames = [];
      this.pairs = new Map();
      for (let slot = 0; slot < this.used; slot++) {
        if (!this.isLive(slot)) continue;
        const pair = this.flow[slot];
        this.flow[slot] = this.internFlow(ids[pair], names[pair]);
      }
    }
  }

  private internFlow(flowId: number, flowName: string): number {
    let names = this.pairs.get(flowId);
    if (!names) this.pairs.set(flowId, (names = new Map()));
    let pair = names.get(flowName);
    if (pair === undefined) {
      pair = this.flowIds.length;
      this.flowIds.push(flowId);
      this.flowNames.push(flowName);
      names.set(flowName, pair);
    }
    return pair;
  }

  private grow(): void {
    const capacity = Math.min(Math.max(FIRST_CAPACITY, this.capacity * 2), Math.max(this.maxSlots, this.used + 1));
    this.id = grown(this.id, capacity);
    this.created = grown(this.created, capacity);
    this.flow = grown(this.flow, capacity);
    this.last = grown(this.last, capacity);
    this.back = grown(this.back, capacity);
    this.ahead = grown(this.ahead, capacity);
    this.absence = grown(this.absence, capacity);
    this.absAt = grown(this.absAt, capacity);
    this.absLen = grown(this.absLen, capacity);
    this.bits = grown(this.bits, capacity);
    this.flags = grown(this.flags, capacity);
    this.capacity = capacity;
    // The index: a power of two at most 80 % full.
    let places = 16;
    while (places * 0.8 < capacity) places *= 2;
    if (places !== this.index.length) {
      this.index = new Int32Array(places);
      this.mask = places - 1;
      for (let slot = 0; slot < this.used; slot++) if (this.isLive(slot)) this.insert(slot);
    }
  }

  private homeOf(slot: number): number {
    const created = this.created[slot];
    return hashOf(this.id[slot], created, created === created ? undefined : this.texts.get(slot)) & this.mask;
  }

  private insert(slot: number): void {
    let at = this.homeOf(slot);
    while (this.index[at] !== 0) at = (at + 1) & this.mask;
    this.index[at] = slot + 1;
  }

  /** Takes a slot out of the index, moving back the places after it that belong before (linear probing). */
  private unindex(slot: number): void {
    let hole = this.homeOf(slot);
    while (this.index[hole] !== slot + 1) hole = (hole + 1) & this.mask;
    for (let at = (hole + 1) & this.mask; this.index[at] !== 0; at = (at + 1) & this.mask) {
      const home = this.homeOf(this.index[at] - 1);
      // The entry at `at` may move to the hole when its home is not in (hole, at] (cyclically).
      const between = hole <= at ? home > hole && home <= at : home > hole || home <= at;
      if (!between) {
        this.index[hole] = this.index[at];
        hole = at;
      }
    }
    this.index[hole] = 0;
  }

  /** Bytes held (the typed arrays and the pool; not the flow names' strings): what a run costs. */
  get bytes(): number {
    const perSlot = 8 + 8 + 4 + 8 + 4 + 4 + 4 + 4 + 1 + 4 + 1;
    return this.capacity * perSlot + this.index.length * 4 + this.pool.length;
  }
}

/** A column copied into a longer one. */
function grown<T extends Float64Array | Int32Array | Uint32Array | Uint8Array>(column: T, capacity: number): T {
  const to = new (column.constructor as new (length: number) => T)(capacity);
  (to as Float64Array).set(column);
  return to;
}

/** The room a slot's absence bytes take in the pool: 4-byte steps, so a few more absences rewrite them in place. */
const roomOf = (len: number) => (len + 3) & ~3;

const bytes = new Uint8Array(MAX_ABSENCE_BYTES);
const scratch = new Float64Array(MAX_ABSENCES);
