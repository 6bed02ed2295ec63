import * as vscode from 'vscode';
import type { ListId } from '..';
import { listById } from '..';
import { t } from '../../base/l10n';
import { saveWhereSet } from '../../settings/vscode/settingsEdits';
import type { Arrangement } from '../arrangement';
import type { ListDefinition } from '../list';
import type { ListViews } from './listView';

/** What Group … By... uses: the view of each list. */
export interface ArrangeDeps {
  readonly views: ListViews;
}

/**
 * Group … By...: one quick pick with the list's groupings and its sort orders, the current ones marked. The choice is
 * saved in the list's settings (where the current value comes from: a workspace value stays a workspace value) and
 * the view regroups at once, without a request.
 */
export async function arrangeList(deps: ArrangeDeps, id: ListId): Promise<void> {
  const list = listById(id)!;
  const { groupings, sortings, title, noneLabel } = list.arrangements;
  const current = deps.views[id].currentArrangement;
  type Pick = vscode.QuickPickItem & { groupBy?: string; sortBy?: string };
  const mark = (on: boolean) => (on ? t('current') : undefined);
  const picks: Pick[] = [
    { label: t('Group by'), kind: vscode.QuickPickItemKind.Separator },
    ...Object.entries(groupings).map(([name, grouping]) => ({
      label: `${name === current.groupBy ? '$(check)' : '$(blank)'} ${grouping ? grouping.label() : noneLabel()}`,
      description: mark(name === current.groupBy),
      groupBy: name,
    })),
    { label: t('Sort by'), kind: vscode.QuickPickItemKind.Separator },
    ...Object.entries(sortings).map(([name, sorting]) => ({
      label: `${name === current.sortBy ? '$(check)' : '$(blank)'} ${sorting.label()}`,
      description: mark(name === current.sortBy),
      sortBy: name,
    })),
  ];
  const picked = await vscode.window.showQuickPick(picks, {
    title: title(),
    placeHolder: t('Choose how to group or sort the rows'),
  });
  if (!picked) return;
  await saveArrangement(list, { groupBy: picked.groupBy ?? current.groupBy, sortBy: picked.sortBy ?? current.sortBy });
  deps.views[id].rearrange();
}

/** Saves a list's arrangement to its two settings, each where its current value comes from (ListsSection reads them). */
async function saveArrangement(list: ListDefinition<{ id: number }>, arrangement: Arrangement): Promise<void> {
  await saveWhereSet(list.arrangements.groupBySetting, arrangement.groupBy);
  await saveWhereSet(list.arrangements.sortBySetting, arrangement.sortBy);
}
