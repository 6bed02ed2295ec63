import * as vscode from 'vscode';
import { parseServiceUrl } from '../../api/url';
import { COMMAND } from '../../base/commandIds';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import { showMessageWithAction } from '../../base/vscode/messages';
import type { KeyPlace, LegacyOutcome, LegacyQuestion } from '../../keys/legacyKeys';
import { secretStoreProblem } from '../../keys/vscode/apiKeyStore';
import type { ApiKeyStore } from '../../keys/vscode/apiKeyStore';
import type { Settings, SettingsFeed } from '../../settings/settingsFeed';
import type { ServicesSection } from '../servicesSection';
import { startLegacyKeyMove } from '../legacyKeyState';

/**
 * At every start, before the services read their keys: earlier versions kept the key of the one service of
 * `flowsync.baseUrl` for its origin, where a service at the root of that host would read it. The legacy key move
 * (src/keys/legacyKeys.ts, over this installation's state: src/services/legacyKeyState.ts) decides every such slot
 * (moved, removed, or asked about without holding the start up) and holds back the reads of a root's slot until its
 * origin is decided. A keyring that fails is tried again at the next start; two live copies are said, never left
 * silently.
 */
export async function moveLegacyKey(deps: {
  readonly globalState: vscode.Memento;
  readonly globalStorageUri: vscode.Uri;
  readonly settings: SettingsFeed<Settings & ServicesSection>;
  readonly keys: ApiKeyStore;
  readonly log: vscode.LogOutputChannel;
}): Promise<void> {
  const { settings, log } = deps;
  await startLegacyKeyMove({
    state: deps.globalState,
    keys: deps.keys,
    places: () => {
      const current = settings.current;
      let baseUrl: KeyPlace | undefined;
      try {
        const url = current.baseUrl.trim() && parseServiceUrl(current.baseUrl, { allowHttp: current.allowHttp });
        baseUrl = url ? { baseUrl: url.baseUrl, origin: url.origin } : undefined;
      } catch {
        baseUrl = undefined;
      }
      const services = current.services.map((s) => ({ baseUrl: s.url.baseUrl, origin: s.url.origin, name: s.name }));
      return { baseUrl, services };
    },
    historyFolders: () => historyFolders(deps.globalStorageUri),
    ask,
    report: (outcomes) => report(outcomes, log),
  });
}

/** The names of History's folders (one per origin in 0.2), or none. */
async function historyFolders(globalStorageUri: vscode.Uri): Promise<string[]> {
  try {
    const entries = await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(globalStorageUri, 'history'));
    return entries.filter(([, type]) => type === vscode.FileType.Directory).map(([name]) => name);
  } catch {
    return [];
  }
}

/** Asked without waiting (the start goes on); an answer runs the move again with it. */
function ask(question: LegacyQuestion, answer: (choice: string) => void): void {
  const { from, targets, root } = question;
  const remove = t('Remove It');
  const names = targets.slice(0, 3).map((s) => inert(s.name ?? s.baseUrl, 80));
  const message = root
    ? t(
        'An earlier version kept an API key for {0}, where the service {1} reads its key. Which of your services is it for? Until you answer, {1} does not use it.',
        inert(from),
        inert(root.name ?? root.baseUrl, 80),
      )
    : t(
        'An earlier version kept an API key for {0}. Which of your services is it for? A service added at {0} would read it until then.',
        inert(from),
      );
  void vscode.window.showWarningMessage(message, ...names, remove).then((choice) => {
    if (choice === undefined) return;
    const chosen = choice === remove ? 'remove' : targets[names.indexOf(choice)]?.baseUrl;
    if (chosen !== undefined) answer(chosen);
  });
}

function report(outcomes: readonly LegacyOutcome[], log: vscode.LogOutputChannel): void {
  for (const outcome of outcomes) {
    const kept = `The API key an earlier version kept for ${inert(outcome.from)}`;
    if (outcome.kind === 'failed') {
      log.error(
        `${kept} could not be moved or removed (tried again at the next start): ${secretStoreProblem(outcome.error)}`,
      );
    } else if (outcome.kind === 'copiedNotRemoved') {
      const message = t(
        'The API key for {0} is now kept for that address only, but its old copy for {1} could not be removed from the system keyring ({2}). Flow Sync tries again at the next start; a service at {1} does not read it meanwhile.',
        inert(outcome.to),
        inert(outcome.from),
        inert(String((outcome.error as Error)?.message ?? outcome.error), 200),
      );
      log.error(message);
      showMessageWithAction('error', message, t('Show Log'), COMMAND.showLog);
    } else if (outcome.kind === 'moved') {
      log.info(`${kept} is now kept for ${inert(outcome.to)} only.`);
    } else {
      log.info(
        `${kept} ${outcome.kind === 'removed' ? 'was removed (no service uses it there)' : 'is the key of the service there'}.`,
      );
    }
  }
}
