import * as vscode from 'vscode';
import { t } from '../../base/l10n';
import { onFirstUse, type OnFirstUse } from '../../base/onFirstUse';
import type { Product, Started } from './product';

/**
 * The product (product.ts, in the services' chunk) made on first use: by the start once the host has had its turn, or
 * before that by the first command, link, tool or restored panel that needs it. A making that fails is logged (inert,
 * bounded), answers the views' waiting questions with no rows, and is said with Show Log, once per making: the start's
 * own, then only one a person's action asked for; the next use makes it anew. Nothing is said once it is disposed.
 */
export function productOnFirstUse(started: Started): OnFirstUse<Product> {
  return onFirstUse(async () => (await import('./product')).makeProduct(started), {
    dispose: (made) => made.dispose(),
    onError: (error) => {
      started.loadFailed('The services')(error);
      for (const view of Object.values(started.views)) view.data.fail();
      const message = t('Flow Sync could not start its services. The Flow Sync log says why.');
      const showLog = t('Show Log');
      void vscode.window.showErrorMessage(message, showLog).then((chosen) => chosen && started.log.show(true));
    },
  });
}
