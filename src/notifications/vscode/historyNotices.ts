import type { Disposable } from 'vscode';
import { onFirstUse } from '../../base/onFirstUse';
import { eachService, serviceName } from '../../base/serviceSet';
import type { OpenRunAsJson } from '../../history/vscode/announceFinished';
import type { ServiceRegistry } from '../../services/vscode/serviceRegistry';
import type { SettingsFeed } from '../../settings/settingsFeed';
import type { WebSection } from '../../webPages/webUrl';

/**
 * Says what each service's History tells (syncs that left, became stuck or slower, History not written), named by its
 * service when there are several. The notifications' code (esbuild.js CHUNKS: announce) loads with the first notice;
 * a failed load goes to `onError` once, and the next notice tries again.
 */
export function announceHistoryNotices(
  services: ServiceRegistry,
  json: OpenRunAsJson,
  onError: (error: unknown) => void,
  webPages?: SettingsFeed<WebSection>,
): Disposable {
  const announcer = onFirstUse(() => import('../../history/vscode/announceFinished'), { onError });
  return eachService(services, (service) =>
    service.history.onDidNotify(
      (notice) =>
        void announcer.get().then(
          (m) =>
            m.announce(
              notice,
              (text) => {
                const name = serviceName(services, service);
                return name === undefined ? text : `${name}: ${text}`;
              },
              json,
              service.id,
              webPages?.current.webUrls.get(service.id)?.sync !== undefined, // Open in Browser for one sync
            ),
          () => undefined, // told to onError
        ),
    ),
  );
}
