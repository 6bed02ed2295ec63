import { COMMAND } from '../../base/commandIds';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import { showMessageWithAction } from '../../base/vscode/messages';
import { moveKey } from '../../keys/moveKey';
import { secretStoreProblem } from '../../keys/vscode/apiKeyStore';
import { legacyKeyMove } from '../serviceTargets';
import type * as vscode from 'vscode';
import type { ApiKeyStore } from '../../keys/vscode/apiKeyStore';
import type { Settings, SettingsFeed } from '../../settings/settingsFeed';
import type { ServicesSection } from '../servicesSection';

/** Set in globalState once the one service's key of an earlier version (kept for its origin) has moved to its base URL. */
const KEYS_BY_BASE_URL = 'flowsync.keysByBaseUrl';

/**
 * Once per installation: earlier versions kept the key of the one service of `flowsync.baseUrl` for its origin, where
 * a service at the root of that host would read it. It moves to the base URL it was entered for (copied, then
 * removed). With `flowsync.services` in use only a leftover copy goes (the same key the base URL holds, as an earlier
 * Add Service left it): a key the base URL does not hold may be the root's own. A keyring that fails is tried again
 * at the next start; two live copies are said, never left silently.
 */
export async function moveLegacyKey(deps: {
  readonly globalState: vscode.Memento;
  readonly settings: SettingsFeed<Settings & ServicesSection>;
  readonly keys: ApiKeyStore;
  readonly log: vscode.LogOutputChannel;
}): Promise<void> {
  const { globalState, settings, keys, log } = deps;
  if (globalState.get(KEYS_BY_BASE_URL) === true) return;
  const current = settings.current;
  const move = legacyKeyMove(current.baseUrl, current.allowHttp);
  const result = move
    ? await moveKey(keys, move.from, move.to, { onlyLeftover: current.services.length > 0 })
    : { kind: 'nothing' as const };
  if (result.kind === 'failed') {
    log.error(
      `The API key kept for an origin by an earlier version could not be moved to its service's base URL; tried again at the next start: ${secretStoreProblem(result.error)}`,
    );
    return;
  }
  if (result.kind === 'copiedNotRemoved' && move) {
    const message = t(
      'The API key for {0} is now kept for that address only, but its old copy for {1} could not be removed from the system keyring ({2}). Flow Sync tries again at the next start; until then a service at {1} could read it.',
      inert(move.to),
      inert(move.from),
      inert(String((result.error as Error)?.message ?? result.error), 200),
    );
    log.error(message);
    showMessageWithAction('error', message, t('Show Log'), COMMAND.showLog);
    return;
  }
  if (result.kind === 'moved' && move) {
    log.info(`The API key kept for ${inert(move.from)} by an earlier version is now kept for ${inert(move.to)} only.`);
  }
  await globalState.update(KEYS_BY_BASE_URL, true);
}
