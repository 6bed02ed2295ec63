/**
 * A server of the rig that the unit tests share: started by the first suite that asks for it, once per test run, and
 * stopped after the last test (or, should the run end otherwise, as the rig's module does on its way out).
 */
import * as path from 'node:path';

/** A module of test/rig (an ES module of the repository, not compiled): from out/test/unit/helpers, four folders up. */
const rigModule = (file: string) => path.join(__dirname, '..', '..', '..', '..', 'test', 'rig', file);

/** `start(rig)` once, from the first call on; the server is stopped after the run's last test. */
export function oncePerRun<Rig, Server extends { stop(): Promise<void> }>(
  file: string,
  start: (rig: Rig) => Promise<Server>,
): () => Promise<Server> {
  let server: Promise<Server> | undefined;
  after(async () => {
    if (server) await (await server).stop();
  });
  return () => (server ??= (import(rigModule(file)) as Promise<Rig>).then(start));
}
