import { t } from '../base/l10n';
import { apiKeyProblem } from './apiKey';
import { ApiError } from './errors';
import { getJson, type AnswerBytes } from './http';
import { DEFAULT_MAX_BYTES, MAX_COMMAS, MAX_CONTAINERS } from './jsonBounds';
import type { Connection, FlowSync, Item, ListResult } from './types';
import { API_PREFIX, parseServiceUrl, type ServiceUrl } from './url';
import { validateConnection, validateFlowSync, type Validator } from './validate';
import { validateList } from './validateList';
import type { Validators } from './validators';

const DEFAULT_TIMEOUT_MS = 15_000;
/** Bounds on one answer (the same as on every file read from global storage): see jsonBounds.ts. */
export { DEFAULT_MAX_BYTES, MAX_COMMAS, MAX_CONTAINERS } from './jsonBounds';
export { MAX_ITEMS } from './validate';

/** Request paths whose last answer is kept (the lists, with and without a team filter): a bound on the memory held. */
const MAX_KEPT_ANSWERS = 4;

/** One line per request for the log. Holds the path and query only: never the key, never the host. */
export interface RequestRecord {
  method: 'GET';
  path: string;
  status?: number;
  ms: number;
  items?: number;
  dropped?: number;
  bytes?: number;
  /** The service answered 304 to a conditional request: the last answer stands, no body was read. */
  notModified?: boolean;
  error?: ApiError;
}

export interface FlowSyncClientOptions {
  /** The service's URL as parsed once by its reader (the Explorer's settings), or as typed (tests, the bench). */
  baseUrl: ServiceUrl | string;
  apiKey: string;
  /** Plain http to a non-loopback host. */
  allowHttp?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  maxContainers?: number;
  maxCommas?: number;
  userAgent?: string;
  now?: () => number;
  onRequest?: (record: RequestRecord) => void;
}

export interface ListOptions {
  /** Restricts the result to one team (`team_id` query parameter). */
  teamId?: string;
  signal?: AbortSignal;
}

/** Client for the two read-only endpoints of the Flow Sync public API v1. */
export class FlowSyncClient {
  readonly service: ServiceUrl;
  private readonly options: Required<Omit<FlowSyncClientOptions, 'onRequest' | 'allowHttp' | 'baseUrl'>> &
    Pick<FlowSyncClientOptions, 'onRequest'>;
  /** The last valid answer of each request path: the next identical answer is compared instead of counted and hashed. */
  private readonly lastAnswers = new Map<string, { endpoint: string; answer: AnswerBytes }>();
  /**
   * The validators (ETag, Last-Modified) of the last answer of each request path that had them, with that answer's
   * result: the next request for the path is conditional, and a 304 gives that result again. A path is a list and a
   * team filter, and a client is one base URL and key: a new key or URL is a new client, which reuses nothing. Only
   * the current team filter's validators of a list are kept: a filter changed and changed back asks whole. Only the
   * answer its list holds is kept (keepOnly): one the window's budget refused is not.
   */
  private readonly lastValidated = new Map<
    string,
    { endpoint: string; validators: Validators; result: ListResult<unknown> }
  >();

  /** Throws ApiError('invalidUrl') for a base URL that may not carry the key (see parseServiceUrl). */
  constructor(options: FlowSyncClientOptions) {
    this.service =
      typeof options.baseUrl === 'string'
        ? parseServiceUrl(options.baseUrl, { allowHttp: options.allowHttp })
        : options.baseUrl;
    if (!options.apiKey) throw new ApiError('unauthorized', t('No API key is set. Run "Flow Sync: Set API Key...".'));
    const keyProblem = apiKeyProblem(options.apiKey);
    if (keyProblem) {
      throw new ApiError(
        'unauthorized',
        t('The stored API key cannot be sent: {0} Run "Flow Sync: Set API Key...".', keyProblem),
      );
    }
    this.options = {
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
      maxContainers: options.maxContainers ?? MAX_CONTAINERS,
      maxCommas: options.maxCommas ?? MAX_COMMAS,
      userAgent: options.userAgent ?? 'flowsync-explorer',
      now: options.now ?? Date.now,
      onRequest: options.onRequest,
    };
  }

  /** The items kept with the last answers for conditional requests, over every request path. */
  get keptItems(): number {
    let count = 0;
    for (const kept of this.lastValidated.values()) count += kept.result.items.length;
    return count;
  }

  /**
   * The list of `endpoint` now holds `held` (its items and their fingerprint; none: nothing): of its last answers
   * (their bytes, their validators with their items) only the one it holds is kept, with the list's own items. An
   * answer is read and kept before the window's budget of items may refuse it (src/lists/windowBudget.ts); this drops
   * it once refused, so the client never keeps more items than the lists hold, nor a second copy of them.
   */
  keepOnly(endpoint: string, held: { readonly fingerprint?: string; readonly items?: readonly Item<unknown>[] }): void {
    const holds = (fingerprint: string) => held.items !== undefined && fingerprint === held.fingerprint;
    for (const [path, kept] of this.lastAnswers) {
      if (kept.endpoint === endpoint && !holds(kept.answer.fingerprint)) this.lastAnswers.delete(path);
    }
    for (const [path, kept] of this.lastValidated) {
      if (kept.endpoint !== endpoint) continue;
      if (!holds(kept.result.fingerprint)) this.lastValidated.delete(path);
      else if (kept.result.items !== held.items) kept.result = { ...kept.result, items: held.items as Item<unknown>[] };
    }
  }

  listProcessing(options: ListOptions = {}): Promise<ListResult<FlowSync>> {
    return this.list('/flowsyncs/processing', t('processing flow syncs'), validateFlowSync, options);
  }

  listConnections(options: ListOptions = {}): Promise<ListResult<Connection>> {
    return this.list('/connections/index', t('connections'), validateConnection, options);
  }

  /** GETs one list endpoint (a path below /api/public/v1) and validates each item; `label` names it in messages. */
  async list<T extends { id: number }>(
    endpoint: string,
    label: string,
    validate: Validator<T>,
    { teamId, signal }: ListOptions = {},
  ): Promise<ListResult<T>> {
    const query = teamId ? `?team_id=${encodeURIComponent(teamId)}` : '';
    const path = `${API_PREFIX}${endpoint}${query}`;
    const { now, onRequest } = this.options;
    const started = now();
    for (const [keptPath, kept] of this.lastValidated) {
      if (kept.endpoint === endpoint && keptPath !== path) this.lastValidated.delete(keptPath);
    }
    const validated = this.lastValidated.get(path);
    try {
      const response = await getJson(`${this.service.baseUrl}${path}`, label, {
        ...this.options,
        signal,
        previous: this.lastAnswers.get(path)?.answer,
        conditional: validated?.validators,
      });
      /** Says the request and its result to onRequest, and returns the result. */
      const answered = (result: ListResult<T>, bytes: number): ListResult<T> => {
        onRequest?.({
          method: 'GET',
          path,
          status: response.status,
          ms: now() - started,
          items: result.items.length,
          dropped: result.dropped,
          bytes,
          ...(result.notModified ? { notModified: true } : {}),
        });
        return result;
      };
      if (response.notModified) return answered({ ...(validated!.result as ListResult<T>), notModified: true }, 0);
      const result: ListResult<T> = {
        ...validateList(response.body, validate, label),
        fingerprint: response.fingerprint,
      };
      if (this.lastAnswers.size >= MAX_KEPT_ANSWERS && !this.lastAnswers.has(path)) this.lastAnswers.clear();
      this.lastAnswers.set(path, { endpoint, answer: response.answer });
      if (response.validators) {
        if (this.lastValidated.size >= MAX_KEPT_ANSWERS && !this.lastValidated.has(path)) this.lastValidated.clear();
        this.lastValidated.set(path, { endpoint, validators: response.validators, result });
      } else {
        this.lastValidated.delete(path);
      }
      return answered(result, response.bytes);
    } catch (e) {
      const error = e instanceof ApiError ? e : new ApiError('invalidResponse', t('Could not read {0}.', label));
      onRequest?.({ method: 'GET', path, status: error.status, ms: now() - started, error });
      throw error;
    }
  }
}
