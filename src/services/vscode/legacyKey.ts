import * as vscode from 'vscode';
import { parseServiceUrl } from '../../api/url';
import { COMMAND } from '../../base/commandIds';
import { inert } from '../../base/inert';
import { t } from '../../base/l10n';
import { showMessageWithAction } from '../../base/vscode/messages';
import { moveLegacyKeys, MAX_LEGACY_ORIGINS, type KeyPlace, type LegacyKeyPorts } from '../../keys/legacyKeys';
import { secretStoreProblem } from '../../keys/vscode/apiKeyStore';
import type { ApiKeyStore } from '../../keys/vscode/apiKeyStore';
import type { Settings, SettingsFeed } from '../../settings/settingsFeed';
import type { ServicesSection } from '../servicesSection';

/** Set in globalState once the keys an earlier version kept for an origin have moved (src/keys/legacyKeys.ts). */
const KEYS_BY_BASE_URL = 'flowsync.keysByBaseUrl';
/** The teams remembered per origin (src/lists/vscode/teamMemory.ts): origins this installation used before. */
const TEAMS_STATE_KEY = 'flowsync.knownTeamsByOrigin';

/**
 * At the start, until done: earlier versions kept the key of the one service of `flowsync.baseUrl` for its origin,
 * where a service at the root of that host would read it. moveLegacyKeys moves or removes every such key unless a
 * service sits at that root, and asks (once per start, without holding the start up) when it cannot decide. A keyring
 * that fails is tried again at the next start; two live copies are said, never left silently.
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
  const placeOf = (url: string, name?: string): KeyPlace | undefined => {
    try {
      const parsed = parseServiceUrl(url, { allowHttp: current.allowHttp });
      return { baseUrl: parsed.baseUrl, origin: parsed.origin, name };
    } catch {
      return undefined;
    }
  };
  const known = globalState.get<unknown>(TEAMS_STATE_KEY);
  const ports: LegacyKeyPorts = {
    slots: keys,
    baseUrl: current.baseUrl.trim() ? placeOf(current.baseUrl) : undefined,
    services: current.services.map((s) => ({ baseUrl: s.url.baseUrl, origin: s.url.origin, name: s.name })),
    knownOrigins:
      typeof known === 'object' && known !== null && !Array.isArray(known)
        ? Object.keys(known)
            .slice(0, MAX_LEGACY_ORIGINS)
            .flatMap((scope) => placeOf(scope)?.origin ?? [])
        : [],
    done: () => globalState.get(KEYS_BY_BASE_URL) === true,
    markDone: async () => void (await globalState.update(KEYS_BY_BASE_URL, true)),
    // Asked without waiting (the start goes on); an answer runs the move again with it.
    ask: async ({ from, targets }) => {
      const remove = t('Remove It');
      const names = targets.slice(0, 3).map((s) => inert(s.name ?? s.baseUrl, 80));
      void vscode.window
        .showWarningMessage(
          t(
            'An earlier version kept an API key for {0}. Which of your services is it for? A service added at {0} would read it until then.',
            inert(from),
          ),
          ...names,
          remove,
        )
        .then((choice) => {
          if (choice === undefined) return;
          const answer = choice === remove ? 'remove' : targets[names.indexOf(choice)]?.baseUrl;
          if (answer !== undefined) void run({ ...ports, ask: async () => answer });
        });
      return undefined;
    },
  };
  const run = async (p: LegacyKeyPorts) => report(await moveLegacyKeys(p));
  const report = (outcomes: Awaited<ReturnType<typeof moveLegacyKeys>>) => {
    for (const { from, to, result } of outcomes) {
      if (result.kind === 'failed') {
        log.error(
          `The API key kept for an origin by an earlier version could not be moved or removed; tried again at the next start: ${secretStoreProblem(result.error)}`,
        );
      } else if (result.kind === 'copiedNotRemoved' && to) {
        const message = t(
          'The API key for {0} is now kept for that address only, but its old copy for {1} could not be removed from the system keyring ({2}). Flow Sync tries again at the next start; until then a service at {1} could read it.',
          inert(to),
          inert(from),
          inert(String((result.error as Error)?.message ?? result.error), 200),
        );
        log.error(message);
        showMessageWithAction('error', message, t('Show Log'), COMMAND.showLog);
      } else if (result.kind === 'moved') {
        log.info(
          to
            ? `The API key kept for ${inert(from)} by an earlier version is now kept for ${inert(to)} only.`
            : `The API key kept for ${inert(from)} by an earlier version was removed (no service uses it there).`,
        );
      }
    }
  };
  await run(ports);
}
