import * as vscode from 'vscode';
import type { Connection, FlowSync } from '../../api/types';
import type { Explorer } from '../../lists/explorer';
import type { ListState } from '../../lists/refresh';
import { connectionsInput, connectionsResult } from '../connectionsResult';
import { historyInput, historyResult } from '../historyResult';
import { insightsInput, insightsResult } from '../insightsResult';
import { processingInput, processingResult } from '../processingResult';
import { invocationMessage, needsLoad, severalServicesResult, unknownServiceResult } from '../toolCall';
import { serviceInput } from '../toolInput';
import type { ListId } from '../../lists';
import type { ApiKeyStore } from '../../keys/vscode/apiKeyStore';
import { NO_OLDER_DAYS, type HistoryEntry, type OlderDays } from '../../history/index';
import { flowInsights } from '../../history/insights';
import type { TOOL_NAMES } from '../toolNames';
import type { Clock } from '../../base/clock';
import type { SettingValues } from '../../settings/settingValues';
import type { WebSection, WebTemplates } from '../../webPages/webUrl';
import type { ServiceSet } from '../../base/serviceSet';
import type { FilterLive } from '../../filter/filterMatch';
import type { HistoryService } from '../../history/vscode/historyService';

/** A tool's id: processing, connections, history, insights. */
export type ToolId = keyof typeof TOOL_NAMES;

/** What the history tool reads from a service's History. */
export interface HistorySource {
  entries(): readonly HistoryEntry[];
  stuck(): readonly FlowSync[];
  /** What History knows of a processing sync for a filter (is:stuck, is:watched, is:longer, its age). */
  live?(sync: FlowSync, now: number): FilterLive;
  /** Whether a sync is watched. */
  watched?(id: number): boolean;
  /** The summaries of the older days (the insights tool); none: only the runs in memory count. */
  older?(): OlderDays;
}

/** One service as the tools read it: its name (several services), its Explorer and its History. */
export interface ToolService {
  readonly name?: string;
  readonly explorer: Explorer;
  readonly history?: HistorySource;
  /** Resolves once the service has read its key for the first time, or after the keyring's timeout (ServiceRegistry.whenRead). */
  readonly whenRead?: () => Promise<unknown>;
  /** Its web page templates (Open in Browser): each row of a kind with one carries its `url`. */
  readonly pages?: () => WebTemplates | undefined;
}

/** A service as the tools read it from the ServiceSet: its name (several services), its Explorer and its History. */
export interface ToolConnection {
  /** Its id (its web page templates are kept by it). */
  readonly id?: string;
  readonly name?: string;
  readonly explorer: Explorer;
  /** What History offers the tools (each read anew). */
  readonly history: Pick<HistoryService, 'reads'>;
  /** Resolves once it has read its key for the first time. */
  whenRead(): Promise<void>;
}

/** The services as the tools get them: the ServiceSet, and the waits for it to be made and for a service's key. */
export interface ToolServices extends Pick<ServiceSet<ToolConnection>, 'all' | 'several' | 'byName'> {
  /** Resolves once the services are made (ServiceRegistry.whenMade): a call before then waits for them. */
  whenMade(): Promise<void>;
  /** Resolves once a service has read its key, or after the keyring's timeout (ServiceRegistry.whenRead). */
  whenRead(service: ToolConnection): Promise<unknown>;
}

/** What the tools are registered with (tools.ts; toolSource makes each call's ToolSource from it). */
export interface ToolDeps {
  readonly services: ToolServices;
  /** With keys, each service's key is read for its answer only to be removed from it. */
  readonly keys?: Pick<ApiKeyStore, 'get'>;
  readonly clock: Clock;
  readonly settings: { readonly current: Pick<SettingValues, 'historyDays'> & Partial<WebSection> };
}

/** What the tools answer from: the services (read per call: they change), the clock, and the settings they read. */
export interface ToolSource {
  readonly services: Pick<ServiceSet<ToolService>, 'all' | 'several' | 'byName'>;
  /** With keys, each service's key is read for its answer only to be removed from it. */
  readonly keys?: Pick<ApiKeyStore, 'get'>;
  readonly clock: Clock;
  /**
   * The window's settings: the tools read historyDays. A list's age is measured against the refresh interval its
   * service's Explorer was configured with (ServiceSettings; not slowed while the window is unfocused), never against
   * the setting.
   */
  readonly settings: { readonly current: Pick<SettingValues, 'historyDays'> & Partial<SettingValues> };
  /** Resolves once the services are made (ServiceRegistry.whenMade): a call before then waits for them. */
  readonly ready?: () => Promise<void>;
}

/**
 * The tools' source from the services they were registered with: each call reads the services anew (they come and
 * go), and each service's History through its entry in the ServiceSet.
 */
export function toolSource({ services, keys, clock, settings }: ToolDeps): ToolSource {
  const asTool = (s: ToolConnection): ToolService => ({
    name: s.name,
    explorer: s.explorer,
    history: s.history.reads,
    whenRead: () => services.whenRead(s),
    pages: () => (s.id === undefined ? undefined : settings.current.webUrls?.get(s.id)),
  });
  return {
    services: {
      get all() {
        return services.all.map(asTool);
      },
      get several() {
        return services.several;
      },
      byName: (name) => {
        const service = services.byName(name);
        return service && asTool(service);
      },
    },
    keys,
    clock,
    settings,
    ready: () => services.whenMade(),
  };
}

/**
 * What the language model tools do when called (see tools.ts): the chunk dist/chunks/toolAnswers.js (esbuild.js
 * CHUNKS), with the answers' text (src/tools/: one file per tool's answer, dataBlock.ts their fence), loaded on the first tool call. A call answers for the
 * service its `service` input names, else for every service; with several, each service's answer names it.
 */
export function toolFor(id: ToolId, source: ToolSource): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation: () => ({ invocationMessage: invocationMessage(id) }),
    async invoke(options, token) {
      const { services } = source;
      const asked = serviceInput(options.input);
      const chosen =
        asked === undefined ? services.all : [services.byName(asked)].filter((s): s is ToolService => s !== undefined);
      if (asked !== undefined && chosen.length === 0) {
        return textResult(
          unknownServiceResult(
            asked,
            services.all.map((s) => s.name ?? ''),
          ),
        );
      }
      const named = services.several;
      const parts: string[] = [];
      for (const service of chosen) {
        parts.push(await answerFor(id, source, service, named ? service.name : undefined, options.input, token));
      }
      return textResult(parts.length === 1 ? parts[0] : severalServicesResult(parts));
    },
  };
}

/** What one service's answer to a tool call is made from. */
interface ToolCall {
  readonly source: ToolSource;
  readonly service: ToolService;
  /** The service's name on its block's "service" line (several services). */
  readonly name: string | undefined;
  readonly input: unknown;
  /** The service's key, removed from the answer. */
  readonly hide: string | undefined;
  readonly now: number;
}

/** What the list tools' answers share: the Explorer's status, teams and team filter. */
function listSnapshot({ service: { explorer, pages }, now, hide, name }: ToolCall) {
  return {
    pages: pages?.(),
    status: explorer.status,
    detail: explorer.detail,
    teamId: explorer.teamId,
    teams: explorer.teams.list(),
    now,
    hide,
    service: name,
  };
}

/** What the History tools' answers share: the Explorer's status, the days History keeps, the service's line. */
function historySnapshot({ source, service: { explorer, pages }, hide, name }: ToolCall) {
  return {
    pages: pages?.(),
    status: explorer.status,
    detail: explorer.detail,
    hide,
    historyDays: source.settings.current.historyDays,
    service: name,
  };
}

/**
 * Each tool: the list it loads first when nothing is held or it is stale, and its answer. A Record over the tool names
 * (TOOL_NAMES): a tool added there without its entry here does not compile, so no tool is answered with another's list.
 */
const TOOLS: Record<ToolId, { readonly list: ListId; answer(call: ToolCall): string }> = {
  processing: {
    list: 'processing',
    answer: (call) => {
      const { history, explorer } = call.service;
      const live = history?.live && ((sync: FlowSync, at: number) => history.live!(sync, at));
      return processingResult(processingInput(call.input), {
        ...listSnapshot(call),
        live,
        state: explorer.lists.processing.state as Readonly<ListState<FlowSync>>,
      });
    },
  },
  connections: {
    list: 'connections',
    answer: (call) =>
      connectionsResult(connectionsInput(call.input), {
        ...listSnapshot(call),
        state: call.service.explorer.lists.connections.state as Readonly<ListState<Connection>>,
      }),
  },
  history: {
    list: 'processing',
    answer: (call) => {
      const { history } = call.service;
      return historyResult(historyInput(call.input), {
        ...historySnapshot(call),
        now: call.now,
        entries: history?.entries() ?? [],
        stuck: history?.stuck() ?? [],
        watched: history?.watched && ((id) => history.watched!(id)),
      });
    },
  },
  insights: {
    list: 'processing',
    answer: (call) => {
      const { history } = call.service;
      return insightsResult(insightsInput(call.input), {
        ...historySnapshot(call),
        flows: flowInsights(history?.entries() ?? [], history?.older?.() ?? NO_OLDER_DAYS, call.now),
      });
    },
  },
};

/** One service's answer to a tool call; `name` (several services) goes on its block's "service" line. */
async function answerFor(
  id: ToolId,
  source: ToolSource,
  service: ToolService,
  name: string | undefined,
  input: unknown,
  token: vscode.CancellationToken,
): Promise<string> {
  const { explorer } = service;
  const tool = TOOLS[id];
  // A call at start waits for the service's first read of its key (at most the keyring's timeout), as a link does.
  await service.whenRead?.();
  await freshen(source, explorer, tool.list, token);
  const hide = await keyToHide(explorer, source.keys);
  return tool.answer({ source, service, name, input, hide, now: source.clock.now() });
}

/** Loads the list when nothing is held or it is older than the refresh interval; joins a load in flight. */
async function freshen(
  { clock }: ToolSource,
  explorer: Explorer,
  id: ListId,
  token: vscode.CancellationToken,
): Promise<void> {
  // The refresh interval the service's Explorer was configured with (its ServiceSettings; not slowed while unfocused).
  const maxAgeMs = explorer.pollSettings?.intervalMs;
  if (explorer.status !== 'ready' || maxAgeMs === undefined) return;
  if (!needsLoad(explorer.refresher(id).state, clock.now(), maxAgeMs)) return;
  await untilCancelled(explorer.refresh(id), token);
}

/** The load goes on for the views when the tool call is cancelled; only the wait for it ends. */
function untilCancelled(promise: Promise<void>, token: vscode.CancellationToken): Promise<void> {
  if (token.isCancellationRequested) return Promise.reject(new vscode.CancellationError());
  return new Promise<void>((resolve, reject) => {
    const listener = token.onCancellationRequested(() => {
      listener.dispose();
      reject(new vscode.CancellationError());
    });
    promise.then(
      () => {
        listener.dispose();
        resolve();
      },
      (error: unknown) => {
        listener.dispose();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The key of a service, to remove from its answer; undefined without `keys` or when it cannot be read. */
async function keyToHide(explorer: Explorer, keys: Pick<ApiKeyStore, 'get'> | undefined): Promise<string | undefined> {
  const slot = explorer.keySlot;
  if (!keys || !slot || explorer.status !== 'ready') return undefined;
  return keys.get(slot).catch(() => undefined);
}

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}
