import { t } from '../l10n';
import { ApiError } from './errors';
import { getJson } from './http';
import type { Connection, FlowSync, ListResult } from './types';
import { API_PREFIX, parseServiceUrl, type ServiceUrl } from './url';
import { validateConnection, validateFlowSync, validateList } from './validate';

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/** One line per request for the log. Holds the path and query only: never the key, never the host. */
export interface RequestRecord {
  method: 'GET';
  path: string;
  status?: number;
  ms: number;
  items?: number;
  dropped?: number;
  bytes?: number;
  error?: ApiError;
}

export interface FlowSyncClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Plain http to a non-loopback host. */
  allowHttp?: boolean;
  timeoutMs?: number;
  maxBytes?: number;
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

  /** Throws ApiError('invalidUrl') for a base URL that may not carry the key (see parseServiceUrl). */
  constructor(options: FlowSyncClientOptions) {
    this.service = parseServiceUrl(options.baseUrl, { allowHttp: options.allowHttp });
    if (!options.apiKey) throw new ApiError('unauthorized', t('No API key is set. Run "Flow Sync: Set API Key...".'));
    this.options = {
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
      userAgent: options.userAgent ?? 'flowsync-explorer',
      now: options.now ?? Date.now,
      onRequest: options.onRequest,
    };
  }

  listProcessing(options: ListOptions = {}): Promise<ListResult<FlowSync>> {
    return this.list('/flowsyncs/processing', t('processing flow syncs'), validateFlowSync, options);
  }

  listConnections(options: ListOptions = {}): Promise<ListResult<Connection>> {
    return this.list('/connections/index', t('connections'), validateConnection, options);
  }

  private async list<T>(
    endpoint: string,
    label: string,
    validate: Parameters<typeof validateList<T>>[1],
    { teamId, signal }: ListOptions,
  ): Promise<ListResult<T>> {
    const query = teamId ? `?team_id=${encodeURIComponent(teamId)}` : '';
    const path = `${API_PREFIX}${endpoint}${query}`;
    const { now, onRequest } = this.options;
    const started = now();
    try {
      const response = await getJson(`${this.service.baseUrl}${path}`, label, { ...this.options, signal });
      const result = { ...validateList(response.body, validate, label), fingerprint: response.fingerprint };
      onRequest?.({ method: 'GET', path, status: response.status, ms: now() - started, items: result.items.length, dropped: result.dropped, bytes: response.bytes });
      return result;
    } catch (e) {
      const error = e instanceof ApiError ? e : new ApiError('invalidResponse', t('Could not read {0}.', label));
      onRequest?.({ method: 'GET', path, status: error.status, ms: now() - started, error });
      throw error;
    }
  }
}
