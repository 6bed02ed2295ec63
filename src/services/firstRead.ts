import { clampDelay, type Clock } from '../base/clock';

/**
 * Waits until a service has read its key once (`read`: its first configuration applied), at most `timeoutMs` (the
 * keyring's timeout): a link or a tool call that starts VS Code arrives before that, and must not be told "not set up"
 * by a service that is. 'read' once it has (a read that failed counts: the service then says why), 'timeout' when the
 * keyring did not answer in time. Pure: the clock is injected.
 */
export function untilFirstRead(read: Promise<unknown>, clock: Clock, timeoutMs: number): Promise<'read' | 'timeout'> {
  return new Promise((resolve) => {
    const timer = clock.setTimeout(() => resolve('timeout'), clampDelay(timeoutMs));
    const done = () => {
      clock.clearTimeout(timer);
      resolve('read');
    };
    read.then(done, done);
  });
}
