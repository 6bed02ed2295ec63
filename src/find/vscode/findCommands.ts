import * as vscode from 'vscode';
import { t } from '../../base/l10n';
import { parseFilter, type Filter, type FilterView } from '../../filter/filterQuery';
import { filterPrompt, matchCountText, shownFilter, viewLink } from '../../filter/filterTexts';
import { FILTER_VIEWS } from '../../filter/viewFilters';
import { goToRows, type GoToTarget } from '../goTo';
import { pickRow } from '../../filter/vscode/rowPick';
import { HISTORY_VIEW, type HistoryView, type HistoryViewNode } from '../../history/vscode/historyView';
import type { HistoryService } from '../../history/vscode/historyService';
import type { Explorer } from '../../lists/explorer';
import type { ListId } from '../../lists';
import type { ListViews } from '../../lists/vscode/listView';
import type { OnFirstUse } from '../../base/onFirstUse';
import type { FindViews } from './findViews';

/** What the Find commands use. */
export interface FindCommandDeps {
  /** The views' filters, their code loaded on first use. */
  readonly find: Pick<OnFirstUse<FindViews>, 'get'>;
  /** This extension's id (publisher.name): the authority of a view's link. */
  readonly extensionId: string;
  /** Every service: what Go to... offers, from what each holds. */
  readonly services: {
    readonly all: readonly {
      readonly id: string;
      readonly name?: string;
      readonly explorer: Explorer;
      readonly history: HistoryService;
    }[];
  };
  readonly views: ListViews;
  readonly historyView: HistoryView;
  /** The service's own web page of a row (Open in Browser, an item button of Go to...), when its service has one. */
  readonly web?: { has(target: GoToTarget): boolean; open(target: GoToTarget): Promise<void> };
  /** Opens what Go to... reached as JSON (the JSON documents: src/json/vscode/jsonDocuments.ts). */
  readonly json: {
    open(
      target:
        | { list: ListId; kind: 'item'; id: number; service: string }
        | { list: 'processing'; kind: 'history'; id: number; leftAt: number; service: string },
    ): Promise<void>;
  };
}

function viewName(view: FilterView): string {
  return view === 'processing' ? t('Processing') : view === 'connections' ? t('Connections') : t('History');
}

/**
 * Filter Processing/Connections/History...: an input box prefilled with the view's filter; as you type it says how
 * many rows match (the same matcher as the view) or what is wrong with the filter; Enter applies it to that view only;
 * an empty input clears it; Escape changes nothing.
 */
export async function filterView(deps: FindCommandDeps, view: FilterView): Promise<void> {
  const find = await deps.find.get();
  const box = vscode.window.createInputBox();
  box.title = t('Filter {0}', viewName(view));
  box.prompt = filterPrompt(view);
  box.placeholder = t('e.g. invoices status:pending -has:errors');
  box.value = find.filters.get(view)?.source ?? '';
  /** Reads the text once: says what it matches or what is wrong with it; the filter, when it reads. */
  const check = (value: string): Filter | undefined => {
    const parsed = parseFilter(value, view);
    if (parsed.problem !== undefined) {
      box.validationMessage = { message: parsed.problem, severity: vscode.InputBoxValidationSeverity.Error };
      return undefined;
    }
    if (parsed.filter.terms.length === 0) box.validationMessage = undefined;
    else {
      const { matched, total } = find.count(parsed.filter);
      box.validationMessage = {
        message: matchCountText(matched, total),
        severity: vscode.InputBoxValidationSeverity.Info,
      };
    }
    return parsed.filter;
  };
  let typed = check(box.value);
  await new Promise<void>((resolve) => {
    const subscriptions = [
      box.onDidChangeValue((value) => void (typed = check(value))),
      box.onDidAccept(() => {
        if (!typed) return;
        find.filters.use(typed);
        box.hide();
      }),
      box.onDidHide(() => {
        for (const s of subscriptions) s.dispose();
        box.dispose();
        resolve();
      }),
    ];
    box.show();
  });
}

/**
 * Clear Filter: the view given (the no-match row), else the only filtered view, else the filtered view used last that
 * is shown (a title bar's button: its view is shown), else asks which.
 */
export async function clearFilter(deps: FindCommandDeps, view?: unknown): Promise<void> {
  const find = await deps.find.get();
  const { filters } = find;
  if (typeof view === 'string' && (FILTER_VIEWS as readonly string[]).includes(view)) {
    filters.clear(view as FilterView);
    return;
  }
  const active = filters.active();
  if (active.length === 0) return;
  const chosen =
    find.likelyView(active) ??
    (await pickView(active, t('Clear Filter'), (v) => shownFilter(filters.get(v)?.source ?? '')));
  if (chosen) filters.clear(chosen);
}

/** Copy Link to This View: the link that opens the view used last (or the one picked) with its filter. */
export async function copyViewLink(deps: FindCommandDeps): Promise<void> {
  const find = await deps.find.get();
  const view = find.likelyView(FILTER_VIEWS) ?? (await pickView(FILTER_VIEWS, t('Copy Link to This View')));
  if (!view) return;
  const link = viewLink(deps.extensionId, view, find.filters.get(view)?.source);
  await vscode.env.clipboard.writeText(link);
  void vscode.window.setStatusBarMessage(t('Copied the link to the {0} view.', viewName(view)), 3000);
}

async function pickView(
  views: readonly FilterView[],
  title: string,
  describe?: (view: FilterView) => string,
): Promise<FilterView | undefined> {
  const picked = await vscode.window.showQuickPick(
    views.map((view) => ({ label: viewName(view), description: describe?.(view), view })),
    { title, placeHolder: t('Which view?') },
  );
  return picked?.view;
}

/**
 * Go to Flow Sync or Connection...: a quick pick of what is held (no request), bounded however much is loaded (pickRow):
 * at most GO_TO_ROWS rows at first (every processing sync, then the newest History runs, then connections), and as the
 * person types, any held item found by its id or name (goToRows), a step at a time, at most GO_TO_ROWS again. Enter
 * reveals and selects the row in its view and opens it as JSON, as a link does. A row the view's filter hides is shown
 * by clearing that view's filter first.
 */
export async function goTo(deps: FindCommandDeps): Promise<void> {
  const services = deps.services.all.map((s) => ({
    id: s.id,
    name: s.name,
    processing: s.explorer.status === 'ready' ? (s.explorer.lists.processing.state.items ?? []) : [],
    connections: s.explorer.status === 'ready' ? (s.explorer.lists.connections.state.items ?? []) : [],
    history: s.history.snapshot.entries,
  }));
  const browse = { iconPath: new vscode.ThemeIcon('link-external'), tooltip: t('Open in Browser') };
  const { web } = deps;
  const picked = await pickRow(goToRows(services), {
    title: t('Go to Flow Sync or Connection'),
    placeholder: t('Type an id, a flow, a connection or a team'),
    emptyPlaceholder: t('Nothing is loaded yet: open the Processing and Connections views first'),
    // Open in Browser, the row's item button: its page opens, the pick stays.
    buttons: (pick) => (web?.has(pick.target) ? [browse] : undefined),
    onButton: (pick) => void web?.open(pick.target),
  });
  if (picked) await goToTarget(deps, picked.target);
}

/** Reveals a row in its view (clearing a filter that hides it) and opens it as JSON. */
async function goToTarget(deps: FindCommandDeps, target: GoToTarget): Promise<void> {
  const { json } = deps;
  const find = await deps.find.get();
  if (target.view === 'history') {
    if (!(await revealRun(deps.historyView, target)) && find.filters.get('history')) {
      find.filters.clear('history');
      await revealRun(deps.historyView, target);
    }
    await json.open({
      list: 'processing',
      kind: 'history',
      id: target.id,
      leftAt: target.leftAt,
      service: target.service,
    });
    return;
  }
  const view = deps.views[target.view];
  if (!(await view.revealItem(target.id, target.service)) && find.filters.get(target.view)) {
    find.filters.clear(target.view);
    await view.revealItem(target.id, target.service);
  }
  await json.open({ list: target.view, kind: 'item', id: target.id, service: target.service });
}

/** Shows, selects and focuses a run of History (its service's row and day expanded); false when the view does not list it. */
export async function revealRun(
  history: HistoryView,
  target: { service: string; id: number; leftAt: number },
): Promise<boolean> {
  const children = async (node?: HistoryViewNode) => await history.getChildren(node);
  let days = await children();
  const serviceRow = days.find((node) => node.kind === 'historyService' && node.service === target.service);
  if (serviceRow) days = await children(serviceRow);
  for (const day of days) {
    if (day.kind !== 'historyDay' || day.service !== target.service) continue;
    const index = day.group.entries.findIndex((e) => e.id === target.id && e.leftAt === target.leftAt);
    if (index < 0) continue;
    const entry = day.group.entries[index];
    history.showPageOf(target.service, day.group.key, index); // its day shows the page that holds it
    if (!history.view.visible) await vscode.commands.executeCommand(`${HISTORY_VIEW}.focus`);
    await history.view.reveal(
      { kind: 'historyEntry', entry, service: target.service },
      { select: true, focus: true, expand: true },
    );
    return true;
  }
  return false;
}
