import * as vscode from 'vscode';
import type { Connection, FlowSync, Item } from '../../api/types';
import { t } from '../../base/l10n';
import { pickRow } from '../../filter/vscode/rowPick';
import type { SettingsFeed } from '../../settings/settingsFeed';
import { isHistoryNode, type HistoryNode } from '../../history/historyNode';
import { chosenNodes, type ExplorerNode } from '../../lists/vscode/chosenRows';
import type { ListViews } from '../../lists/vscode/listView';
import type { HistorySelection } from '../../history/vscode/historyCommands';
import type { Explorer } from '../../lists/explorer';
import { expandWebUrl, type WebKind, type WebSection } from '../../webPages/webUrl';
import { connectionTarget, flowTarget, syncTarget, teamTarget, webPicks, type WebTarget } from '../webPicks';

/** What Open in Browser uses. */
export interface BrowserCommandDeps {
  /** The views: the rows chosen (the selection), the service and grouping of a row. */
  readonly views: ListViews;
  /** The History view: its selection, from the palette. */
  readonly historyView: HistorySelection;
  readonly services: {
    readonly all: readonly { readonly id: string; readonly name?: string; readonly explorer: Explorer }[];
    readonly several: boolean;
  };
  /** The web page templates of each service (user settings only). */
  readonly settings: SettingsFeed<WebSection>;
  /** Opens an address outside VS Code (linkHandler.ts BrowserOpener). */
  readonly browser: { open(url: string): Promise<boolean> };
}

/** Names a kind in messages. */
function kindWords(kind: WebKind): string {
  switch (kind) {
    case 'sync':
      return t('a flow sync');
    case 'flow':
      return t('a flow');
    case 'connection':
      return t('a connection');
    case 'team':
      return t('a team');
  }
}

/** What a row of a list stands for: a sync, a connection, a flow or a team row; undefined for other groups. */
export function rowTarget(views: ListViews, node: ExplorerNode): WebTarget | undefined {
  const list = node.list as keyof ListViews;
  const service = views[list].serviceOf(node);
  if (service === undefined) return undefined;
  if (node.kind === 'leaf') {
    if (list === 'processing') {
      const sync = node.item.value as FlowSync;
      return syncTarget(service, { id: sync.id, flowId: sync.flow_id });
    }
    return connectionTarget(service, node.item.value as Connection);
  }
  const key = typeof node.group.key === 'number' ? node.group.key : Number(node.group.key);
  const grouping = views[list].currentArrangement.groupBy;
  if (list === 'processing' && grouping === 'flow') {
    return flowTarget(service, key);
  }
  if (list === 'connections' && grouping === 'team') {
    return teamTarget(service, key);
  }
  return undefined;
}

/** The row given (a menu, a notification's button), else the selection of the views; undefined when none is. */
function chosenTarget(deps: BrowserCommandDeps, node?: unknown, nodes?: readonly unknown[]): WebTarget | undefined {
  const history = [node, ...(nodes ?? [])].find((row) => isHistoryNode(row)) as HistoryNode | undefined;
  const selected =
    node === undefined && deps.historyView.view.visible
      ? (deps.historyView.selection.find((row) => isHistoryNode(row)) as HistoryNode | undefined)
      : undefined;
  const run = history ?? selected;
  if (run?.kind === 'historyEntry') return syncTarget(run.service, run.entry);
  const rows = chosenNodes(deps.views, node, nodes);
  return rows.length ? rowTarget(deps.views, rows[0]) : undefined;
}

/** Open in Browser: the row given, else the selection, else asks (a quick pick of what has a page). */
export async function openInBrowser(
  deps: BrowserCommandDeps,
  node?: ExplorerNode | HistoryNode,
  nodes?: readonly (ExplorerNode | HistoryNode)[],
): Promise<void> {
  const chosen = chosenTarget(deps, node, nodes);
  const target = chosen ?? (await pickTarget(deps));
  if (target) await openTarget(deps, target);
}

/** Opens a target's page; without a template for its kind, says how to set one. False when nothing was opened. */
async function openTarget(deps: Pick<BrowserCommandDeps, 'settings' | 'browser'>, target: WebTarget): Promise<boolean> {
  const template = deps.settings.current.webUrls.get(target.service)?.[target.kind];
  if (!template) {
    sayHowToSet(target.kind);
    return false;
  }
  const url = expandWebUrl(template, target.values);
  if (url === undefined) {
    void vscode.window.showWarningMessage(
      t(
        '{0} has no web page: the address for {1} needs a number the service did not send for it.',
        target.name,
        target.kind,
      ),
    );
    return false;
  }
  return deps.browser.open(url);
}

/** No template for a kind: where to set one, with a button that opens the setting. */
function sayHowToSet(kind: WebKind | undefined): void {
  const open = t('Open Settings');
  const message =
    kind === undefined
      ? t(
          'No web page address is set. Add one per kind to flowsync.webUrl in your user settings (or webUrl in an entry of flowsync.services), e.g. {0}.',
          '{ "sync": "https://app.example.com/flows/{flow_id}/syncs/{id}" }',
        )
      : t(
          'No web page address is set for {0}. Add "{1}" to flowsync.webUrl in your user settings (or to webUrl in an entry of flowsync.services), e.g. {2}.',
          kindWords(kind),
          kind,
          '"https://app.example.com/…/{id}"',
        );
  void vscode.window.showInformationMessage(message, open).then((choice) => {
    if (choice === open) void vscode.commands.executeCommand('workbench.action.openSettings', 'flowsync.webUrl');
  });
}

/**
 * Asks which row to open among those loaded that have a page (syncs, flows, connections, teams), service by service:
 * a pick of loaded rows (webPicks, pickRow), bounded however much is loaded.
 */
async function pickTarget(deps: BrowserCommandDeps): Promise<WebTarget | undefined> {
  const { webUrls } = deps.settings.current;
  const services = {
    several: deps.services.several,
    all: deps.services.all.map((s) => ({
      id: s.id,
      name: s.name,
      syncs: (s.explorer.refresher('processing').state.items ?? []) as readonly Item<FlowSync>[],
      connections: (s.explorer.refresher('connections').state.items ?? []) as readonly Item<Connection>[],
    })),
  };
  const picked = await pickRow(
    webPicks(services, (id) => webUrls.get(id)),
    {
      title: t('Open in Browser'),
      placeholder: t('Choose a flow sync, flow, connection or team'),
      nothing: () => sayHowToSet(undefined),
    },
  );
  return picked?.target;
}

/** A row Go to... offers: a processing sync, a connection or a History run of a service. */
type GoToRow =
  | { readonly view: 'processing' | 'connections'; readonly service: string; readonly id: number }
  | { readonly view: 'history'; readonly service: string; readonly id: number; readonly leftAt: number };

/** What Go to...'s item button needs: the services' lists and History, the templates and the way out. */
export interface GoToPagesDeps extends Pick<BrowserCommandDeps, 'settings' | 'browser'> {
  readonly services: {
    readonly all: readonly {
      readonly id: string;
      readonly explorer: Explorer;
      readonly history: {
        readonly snapshot: { readonly entries: readonly { id: number; flowId: number; leftAt: number }[] };
      };
    }[];
  };
}

/** Go to...'s item button (FindCommandDeps.web): whether a row has a page, and opening it. */
export function goToPages(deps: GoToPagesDeps): {
  has(row: GoToRow): boolean;
  open(row: GoToRow): Promise<void>;
} {
  const targetOf = (row: GoToRow): WebTarget | undefined => {
    const service = deps.services.all.find((s) => s.id === row.service);
    if (!service) return undefined;
    if (row.view === 'history') {
      const run = service.history.snapshot.entries.find((e) => e.id === row.id && e.leftAt === row.leftAt);
      return run && syncTarget(row.service, run);
    }
    const found = (service.explorer.refresher(row.view).state.items ?? []).find(
      (i) => (i.value as { id: number }).id === row.id,
    );
    if (!found) return undefined;
    if (row.view === 'processing') {
      const sync = found.value as FlowSync;
      return syncTarget(row.service, { id: sync.id, flowId: sync.flow_id });
    }
    const connection = found.value as Connection;
    return connectionTarget(row.service, connection);
  };
  return {
    has: (row) => {
      const kind = row.view === 'connections' ? 'connection' : 'sync';
      return deps.settings.current.webUrls.get(row.service)?.[kind] !== undefined;
    },
    open: async (row) => {
      const target = targetOf(row);
      if (target) await openTarget(deps, target);
    },
  };
}
