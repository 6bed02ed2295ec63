// UI test helper: runs for History in a window of its own. The mock's clock moves on between refreshes of Processing,
// so syncs leave processing and History records them.
import { extensionLogTail, screenshot, session, waitFor } from './workbench.mjs';
import { runCommandByKeyboard } from './palette.mjs';
import { statusBarText } from './views.mjs';

const processingRequests = () => session.mock.requests.filter((r) => r.path.endsWith('/flowsyncs/processing')).length;

/**
 * Refreshes Processing `times` times, the mock's clock 10 minutes on before each, and waits each time for the answer
 * (the service asked again, the status bar counting what it answered). Returns how far the clock moved (ms): the suite
 * moves it back in its after() (the session's mock is shared). `server`: the window's code-server, for the log shown
 * when a refresh does not land.
 */
export async function historyRuns(name, server, times = 6) {
  let advancedMs = 0;
  for (let i = 0; i < times; i++) {
    session.mock.advance(10 * 60_000);
    advancedMs += 10 * 60_000;
    const asked = processingRequests();
    await runCommandByKeyboard('Flow Sync: Refresh Processing');
    const count = session.mock.dataset.processingAt(session.mock.now()).length;
    let shown = '';
    await waitFor(
      async () => {
        shown = await statusBarText();
        return processingRequests() > asked && new RegExp(`\\b${count} processing`).test(shown);
      },
      { timeout: 15000, message: `the refresh after ${advancedMs / 60_000} min: ${count} processing` },
    ).catch(async (error) => {
      await screenshot(`${name}-refresh-${advancedMs / 60_000}-min`).catch(() => {});
      const last = session.mock.requests.at(-1);
      session.mock.advance(-advancedMs);
      throw new Error(
        `${error.message}; the status bar showed "${shown}"; requests ${asked} -> ${processingRequests()}, the last: ${last?.path} ${last?.status}\nthe Flow Sync log:\n${extensionLogTail(server)}`,
      );
    });
  }
  return advancedMs;
}
