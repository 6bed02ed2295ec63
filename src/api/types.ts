/** Resource shapes of the Flow Sync public API v1, as documented. Unknown extra fields are kept in `raw`. */

interface FlowSummary {
  id: number;
  name: string;
}

interface TeamSummary {
  id: number;
  name: string;
}

/** A flow sync that the service lists as processing. `status` is any string: only `pending` is documented. */
export interface FlowSync {
  id: number;
  flow_id: number;
  status: string;
  created_at: string;
  updated_at: string;
  /** null when there is no error; the shape otherwise is not documented. */
  errors: unknown;
  webhook: boolean;
  /** Missing or malformed summaries are tolerated: the flow is then shown by its id. */
  flow?: FlowSummary;
}

export interface Connection {
  id: number;
  name: string;
  /** Kind of connection; `pdf` is one documented value, the full set is not documented. */
  type: string;
  team_id: number;
  team?: TeamSummary;
  user_id: number;
  created_at: string;
  updated_at: string;
  meta: Record<string, unknown>;
}

/** One validated item with the exact JSON object the API returned (for "Open as JSON"). */
export interface Item<T> {
  value: T;
  raw: Record<string, unknown>;
}

/** A list call's result: the items that passed validation, and what was dropped. */
export interface ListResult<T> {
  items: Item<T>[];
  /** Number of array entries that failed validation and were left out. */
  dropped: number;
  /** Why the first dropped entry failed, e.g. "item 3: id is not an integer". */
  firstDropReason?: string;
  /** Hash of the response body: equal fingerprints mean the service answered exactly the same. */
  fingerprint: string;
  /**
   * The service answered 304 to a conditional request (src/api/validators.ts): the answer is the last one, whose items
   * these are; no body was read.
   */
  notModified?: boolean;
}
