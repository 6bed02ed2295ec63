import type { FlowSync } from '../api/types';
import { t } from '../l10n';
import type { ExplorerStatus } from './explorer';
import { escapeMarkdown, clockTime } from './format';
import { groupByFlow } from './grouping';
import type { ListState } from './refresh';

/** What the status bar item shows, decided without vscode so it can be unit-tested. */
export interface StatusSummary {
  text: string;
  /** Markdown. */
  tooltip: string;
  /** 'focus' the Processing view, or run 'setApiKey' / 'setBaseUrl'. */
  action: 'focus' | 'setApiKey' | 'setBaseUrl';
  warning: boolean;
}

export function statusSummary(status: ExplorerStatus, detail: string | undefined, state: Readonly<ListState<FlowSync>>): StatusSummary {
  if (status === 'noUrl' || status === 'invalidUrl') {
    return { text: `$(gear) ${t('Flow Sync: set up')}`, tooltip: escapeMarkdown(detail ?? t('Set the Flow Sync service URL to start.')), action: 'setBaseUrl', warning: status === 'invalidUrl' };
  }
  if (status === 'noKey' || status === 'secretsUnavailable') {
    return { text: `$(key) ${t('Flow Sync: Set API Key')}`, tooltip: escapeMarkdown(detail ?? t('Enter your Flow Sync API key to see what is processing.')), action: 'setApiKey', warning: status === 'secretsUnavailable' };
  }
  const count = state.items?.length;
  const spinning = count !== undefined && count > 0;
  const text = count === undefined ? `$(sync~spin) ${t('Flow Sync')}` : `$(${spinning ? 'sync~spin' : 'check'}) ${t('{0} processing', count)}`;
  const lines: string[] = [];
  if (state.items) {
    const groups = groupByFlow(state.items);
    lines.push(groups.length ? `**${t('Processing now')}**` : t('No flow syncs are processing.'));
    for (const g of groups.slice(0, 10)) lines.push(`- ${escapeMarkdown(g.label)}: ${g.items.length}`);
    if (groups.length > 10) lines.push(t('- and {0} more flows', groups.length - 10));
  }
  if (state.error) {
    lines.push('', `$(warning) ${escapeMarkdown(state.error.message)}`);
    if (state.loadedAt !== undefined) lines.push('', t('Last loaded at {0}.', clockTime(state.loadedAt)));
  }
  return {
    text: state.error ? `$(warning) ${count === undefined ? t('Flow Sync') : t('{0} processing', count)}` : text,
    tooltip: lines.join('\n'),
    action: state.error?.kind === 'unauthorized' ? 'setApiKey' : 'focus',
    warning: state.error !== undefined,
  };
}
