import * as vscode from 'vscode';
import type { Connection, FlowSync } from '../../api/types';
import type { Explorer } from '../../lists/explorer';
import type { ListState } from '../../lists/refresh';
import {
  connectionsInput,
  connectionsResult,
  historyInput,
  historyResult,
  invocationMessage,
  needsLoad,
  processingInput,
  processingResult,
  type ToolSnapshot,
} from '../toolResults';
import type { ListId } from '../../lists';
import type { ApiKeyStore } from '../../keys/vscode/apiKeyStore';
import type { HistoryEntry } from '../../history/index';
import type { TOOL_NAMES } from '../toolNames';
import type { Clock } from '../../base/clock';
import type { SettingValues } from '../../settings/settingValues';

/** A tool's id: processing, connections, history. */
export type ToolId = keyof typeof TOOL_NAMES;

/** What the history tool reads from History. */
export interface HistorySource {
  entries(): readonly HistoryEntry[];
  stuck(): readonly FlowSync[];
}

/** What the tools answer from: a service's Explorer and History, the clock, and the settings they read. */
export interface ToolSource {
  readonly explorer: Explorer;
  /** With keys, the current service's key is read for each answer only to be removed from it. */
  readonly keys?: Pick<ApiKeyStore, 'get'>;
  readonly history?: HistorySource;
  readonly clock: Clock;
  readonly settings: { readonly current: Pick<SettingValues, 'refreshIntervalSeconds' | 'historyDays'> };
}

/**
 * What the language model tools do when called (see tools.ts): the chunk dist/chunks/toolAnswers.js (esbuild.js
 * CHUNKS), with the answers' text (src/tools/toolResults.ts), loaded on the first tool call.
 */
export function toolFor(id: ToolId, source: ToolSource): vscode.LanguageModelTool<unknown> {
  const { keys, history, clock, settings } = source;
  switch (id) {
    case 'processing':
      return listTool<FlowSync>(source, 'processing', (raw, s) => processingResult(processingInput(raw), s));
    case 'connections':
      return listTool<Connection>(source, 'connections', (raw, s) => connectionsResult(connectionsInput(raw), s));
    case 'history':
      return {
        prepareInvocation: () => ({ invocationMessage: invocationMessage('history') }),
        async invoke(options, token) {
          await freshen(source, 'processing', token);
          const explorer = source.explorer; // read per call: the service may have changed since registration
          const hide = await keyToHide(explorer, keys);
          return textResult(
            historyResult(historyInput(options.input), {
              status: explorer.status,
              detail: explorer.detail,
              hide,
              now: clock.now(),
              historyDays: settings.current.historyDays,
              entries: history?.entries() ?? [],
              stuck: history?.stuck() ?? [],
            }),
          );
        },
      };
  }
}

function listTool<T>(source: ToolSource, id: ListId, answer: (input: unknown, snapshot: ToolSnapshot<T>) => string): vscode.LanguageModelTool<unknown> {
  const { keys, clock } = source;
  return {
    prepareInvocation: () => ({ invocationMessage: invocationMessage(id) }),
    async invoke(options, token) {
      await freshen(source, id, token);
      const explorer = source.explorer; // read per call: the service may have changed since registration
      const hide = await keyToHide(explorer, keys);
      const snapshot: ToolSnapshot<T> = {
        status: explorer.status,
        detail: explorer.detail,
        state: explorer.refresher(id).state as Readonly<ListState<T>>,
        teamId: explorer.teamId,
        teams: explorer.teams.list(),
        now: clock.now(),
        hide,
      };
      return textResult(answer(options.input, snapshot));
    },
  };
}

/** Loads the list when nothing is held or it is older than the refresh interval; joins a load in flight. */
async function freshen({ explorer, clock, settings }: ToolSource, id: ListId, token: vscode.CancellationToken): Promise<void> {
  if (explorer.status !== 'ready') return;
  const maxAgeMs = settings.current.refreshIntervalSeconds * 1000;
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

/** The key of the current service, to remove from a result; undefined without `keys` or when it cannot be read. */
async function keyToHide(explorer: Explorer, keys: Pick<ApiKeyStore, 'get'> | undefined): Promise<string | undefined> {
  const origin = explorer.scope;
  if (!keys || !origin || explorer.status !== 'ready') return undefined;
  return keys.get(origin).catch(() => undefined);
}

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}
