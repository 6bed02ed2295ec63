import * as assert from 'node:assert/strict';
import { parseServiceUrl } from '../../../src/api/url';
import { Emitter } from '../../../src/base/events';
import type { ExplorerStatus } from '../../../src/lists/explorer';
import {
  ServiceRegistry,
  type RegisteredService,
  type RegistrySettings,
  type ServiceFactory,
} from '../../../src/services/serviceRegistry';
import { checkedEntries } from '../../../src/services/confusables';
import { ServiceEntriesRead } from '../../../src/services/serviceEntries';
import { SINGLE_SERVICE_ID, type ServiceTarget } from '../../../src/services/serviceTargets';
import { FakeClock, flushPromises } from '../helpers/fakeClock';
import { deferred } from '../helpers/deferred';

/** A promise that never settles: a keyring that hangs. */
const never = () => new Promise<never>(() => undefined);

/** A service as the registry sees it: it counts what is asked of it. */
class FakeService implements RegisteredService {
  readonly id: string;
  target: ServiceTarget;
  reconfigures = 0;
  readonly retargets: ServiceTarget[] = [];
  disposed = false;
  respreads = 0;
  focused?: boolean;
  /** What reconfigure() answers: resolved at once, unless a test hangs it (a keyring that does not answer). */
  reconfigureWith: () => Promise<void> = async () => this.configure('noKey');
  private readonly read = deferred<void>();
  private readonly statusChanges = new Emitter<void>();
  readonly explorer = {
    status: 'noUrl' as ExplorerStatus,
    pollSettings: undefined as unknown,
    setFocused: (focused: boolean) => void (this.focused = focused),
    respread: () => void this.respreads++,
    onDidChangeStatus: (listener: () => void) => this.statusChanges.event(listener),
    keyToHide: undefined as string | undefined,
  };

  constructor(target: ServiceTarget) {
    this.id = target.id;
    this.target = target;
  }

  get name(): string | undefined {
    return this.target.name;
  }

  /** Its first configuration: its key read, its status known. */
  configure(status: ExplorerStatus): void {
    this.explorer.status = status;
    this.explorer.pollSettings = { intervalMs: 30_000, autoRefresh: true };
    this.read.resolve();
    this.statusChanges.fire();
  }

  async retarget(target: ServiceTarget): Promise<void> {
    this.retargets.push(target);
    this.target = target;
  }

  reconfigure(): Promise<void> {
    this.reconfigures++;
    return this.reconfigureWith();
  }

  whenRead(): Promise<void> {
    return this.read.promise;
  }

  dispose(): void {
    this.disposed = true;
  }
}

const entry = (name: string, url: string, teamId?: string) => ({
  id: `${name}\u0000${url}`,
  name,
  url: parseServiceUrl(url, {}),
  ...(teamId ? { teamId } : {}),
});

describe('ServiceRegistry (pure: start, retry, reconcile, whenMade/whenRead, failures contained)', () => {
  let clock: FakeClock;
  let settings: { current: RegistrySettings; changes: Emitter<void> };
  let errors: string[];
  let said: string[];
  let context: Map<string, string | boolean>;
  let made: FakeService[];
  let loads: number;
  /** What loadFactory answers, each time it is called (a test replaces it). */
  let load: () => Promise<ServiceFactory<FakeService>>;
  /** What the factory does when it makes a service (a test makes it throw). */
  let make: (target: ServiceTarget) => FakeService;
  let spread: { order(ids: readonly string[]): boolean } | undefined;
  const registries: Array<ServiceRegistry<FakeService>> = [];

  const factory = (): ServiceFactory<FakeService> => ({
    make: (target) => make(target),
    spread,
  });

  function registry(keyringTimeoutMs = 10_000): ServiceRegistry<FakeService> {
    const made = new ServiceRegistry<FakeService>({
      loadFactory: () => {
        loads++;
        return load();
      },
      settings: {
        get current() {
          return settings.current;
        },
        onDidChange: (listener) => settings.changes.event(listener),
      },
      keys: { timeoutMs: keyringTimeoutMs },
      log: { error: (message) => errors.push(message) },
      clock,
      notify: (_level, message, action, command) => said.push(`${message} [${action}: ${command}]`),
      setContext: async (key, value) => void context.set(key, value),
    });
    registries.push(made);
    return made;
  }

  function setServices(...entries: Array<ReturnType<typeof entry>>): void {
    settings.current = { ...settings.current, services: entries };
    settings.changes.fire();
  }

  beforeEach(() => {
    clock = new FakeClock();
    settings = { current: { baseUrl: 'https://flow.example.com', teamId: '', services: [] }, changes: new Emitter() };
    errors = [];
    said = [];
    context = new Map();
    made = [];
    loads = 0;
    spread = undefined;
    load = async () => factory();
    make = (target) => {
      const service = new FakeService(target);
      made.push(service);
      return service;
    };
  });
  afterEach(() => {
    for (const r of registries.splice(0)) r.dispose();
  });

  // ------------------------------------------------------------------ #38 item 12: look-alike names

  it("with the services' entries (names by their UTS #39 skeleton), an entry that only the full table refuses is never made, said once (#38 item 12)", async () => {
    const raw = [
      { name: 'Production', url: 'https://prod.example.com' },
      { name: '\u13e2roduction', url: 'https://evil.example.net' }, // Cherokee "Ꮲ"
      { name: 'Staging', url: 'https://staging.example.com' },
    ];
    const servicesRead = new ServiceEntriesRead(raw, {});
    const read = servicesRead.choose();
    assert.equal(read.entries.length, 3, "the settings' own read at start (serviceNameKey) lets it pass");
    settings.current = {
      ...settings.current,
      services: read.entries,
      servicesRead,
      serviceWarnings: read.warnings,
    };
    const warned: string[] = [];
    load = async () => ({ ...factory(), entries: checkedEntries((message) => warned.push(message)) });
    const started = registry().start();
    await clock.advance(0);
    await started;
    assert.deepEqual(
      made.map((s) => s.name),
      ['Production', 'Staging'],
    );
    assert.deepEqual(warned, [
      'Skipped service 2 ("\u13e2roduction") of flowsync.services: its name looks like the name of another service ("Production").',
    ]);
    settings.changes.fire();
    assert.equal(warned.length, 1, 'said once, not at every change');
  });

  // ------------------------------------------------------------------ 92d0932: the host's turn first

  it('start() loads the code after the extension host has had its turn (a timer of 0), not in a microtask (92d0932)', async () => {
    const services = registry();
    assert.equal(loads, 0, 'constructing loads nothing');
    const started = services.start();
    assert.equal(services.start(), started, 'start() runs once');
    await flushPromises();
    assert.equal(loads, 0, 'every microtask and I/O callback has run: still not loaded before the timer of 0');
    assert.equal(clock.pendingTimers, 1);
    await clock.advance(0);
    assert.equal(loads, 1);
    await started;
    assert.equal(services.all.length, 1);
  });

  // ------------------------------------------------------------------ 829f379: made once, configured once

  it('holds no service until the code is loaded; then makes them, says so once, and configures each once (829f379)', async () => {
    const code = deferred<ServiceFactory<FakeService>>();
    load = () => code.promise;
    const services = registry();
    let changes = 0;
    services.onDidChange(() => changes++);
    const started = services.start();
    await clock.advance(0);
    assert.equal(loads, 1);
    assert.equal(services.all.length, 0, 'no service while the code loads');
    assert.equal(changes, 0);
    code.resolve(factory());
    await started;
    assert.equal(services.all.length, 1, 'the one service of flowsync.baseUrl');
    assert.equal(services.all[0].id, SINGLE_SERVICE_ID);
    assert.equal(changes, 1, 'one change event when the services are made');
    assert.equal(made[0].reconfigures, 1, 'configured once, by start()');
    await services.reconfigure();
    assert.equal(loads, 1, 'reconfigure() does not load again');
    assert.equal(made[0].reconfigures, 2, 'a later reconfigure() applies them again');
  });

  it('reconfigure() before start() waits for the code and the services, and applies the settings once, not twice (829f379)', async () => {
    const services = registry();
    let done = false;
    void services.reconfigure().then(() => (done = true));
    await flushPromises();
    assert.equal(done, false);
    await clock.advance(0);
    assert.equal(done, true);
    assert.equal(services.all.length, 1);
    assert.equal(made[0].reconfigures, 1, 'start() applied them; reconfigure() did not apply them a second time');
  });

  // ------------------------------------------------------------------ 92d0932: failures contained

  it('a service that cannot be made: start() resolves, the error is logged and said, those made before it are disposed (92d0932)', async () => {
    settings.current = {
      ...settings.current,
      services: [entry('Production', 'https://flow.example.com'), entry('Staging', 'https://staging.example.com')],
    };
    make = (target) => {
      if (target.name === 'Staging') throw new Error('cannot make it');
      const service = new FakeService(target);
      made.push(service);
      return service;
    };
    const services = registry();
    let changes = 0;
    services.onDidChange(() => changes++);
    const started = services.start();
    await clock.advance(0);
    await started; // resolves: no unhandled rejection
    assert.equal(services.all.length, 0, 'none is kept');
    assert.equal(changes, 0);
    assert.equal(made.length, 1);
    assert.equal(made[0].disposed, true, 'the service made before it is disposed: nothing is left listening unseen');
    assert.ok(
      errors.some((m) => m.includes('The services could not start') && m.includes('cannot make it')),
      errors.join('\n'),
    );
    assert.deepEqual(said, [
      'Flow Sync could not start its services. The Flow Sync log says why. [Show Log: flowsync.showLog]',
    ]);
  });

  it('code that cannot load: logged and said (Show Log), no service; the next call tries again (92d0932)', async () => {
    load = async () => {
      if (loads === 1) throw new Error('chunk missing');
      return factory();
    };
    const services = registry();
    let changes = 0;
    services.onDidChange(() => changes++);
    const started = services.start();
    await clock.advance(0);
    await started;
    assert.equal(services.all.length, 0);
    assert.equal(changes, 0);
    assert.ok(
      errors.some((m) => m.includes('The services could not start') && m.includes('chunk missing')),
      errors.join('\n'),
    );
    assert.equal(said.length, 1, 'the person is told, with Show Log');
    const again = services.whenMade();
    await clock.advance(0);
    await again;
    assert.equal(loads, 2, 'tried again');
    assert.equal(services.all.length, 1);
    assert.equal(changes, 1);
  });

  it('disposed while the code loads: makes nothing afterwards', async () => {
    const code = deferred<ServiceFactory<FakeService>>();
    load = () => code.promise;
    const services = registry();
    const started = services.start();
    await clock.advance(0);
    services.dispose();
    code.resolve(factory());
    await started;
    assert.equal(services.all.length, 0);
    assert.equal(made.length, 0);
  });

  it("disposed once the services are made, before their first key read: the earlier version's key is not moved, nothing is configured", async () => {
    let moves = 0;
    load = async () => ({ ...factory(), beforeFirstRead: async () => void moves++ });
    const services = registry();
    services.onDidChange(() => services.dispose()); // the services are made: disposed before the key is moved
    const started = services.start();
    await clock.advance(0);
    await started;
    assert.equal(made.length, 1, 'made');
    assert.equal(made[0].disposed, true);
    assert.equal(moves, 0, 'the key is left where it is');
    assert.equal(made[0].reconfigures, 0, 'nothing configured');
    assert.deepEqual(errors, []);
  });

  // ------------------------------------------------------------------ 92d0932: commands waiting on a hung keyring

  it('whenMade() does not wait for the keys (a hung keyring must not hold up a command); start() does (92d0932)', async () => {
    make = (target) => {
      const service = new FakeService(target);
      service.reconfigureWith = never; // the keyring never answers
      made.push(service);
      return service;
    };
    const services = registry();
    let isMade = false;
    let isStarted = false;
    void services.start().then(() => (isStarted = true));
    void services.whenMade().then(() => (isMade = true));
    await clock.advance(0);
    await clock.advance(60_000);
    assert.equal(services.all.length, 1, 'made');
    assert.equal(isMade, true, 'whenMade() resolved although the key read hangs');
    assert.equal(isStarted, false, 'start() waits for the key read');
  });

  it('flowsync.state is set only once every service has read its key: never "set up" to a person who has (92d0932)', async () => {
    settings.current = {
      ...settings.current,
      services: [entry('Production', 'https://flow.example.com'), entry('Staging', 'https://staging.example.com', '7')],
    };
    const reads = [deferred<void>(), deferred<void>()];
    make = (target) => {
      const service = new FakeService(target);
      const read = reads[made.length];
      service.reconfigureWith = () => read.promise.then(() => service.configure('noKey'));
      made.push(service);
      return service;
    };
    const services = registry();
    void services.start();
    await clock.advance(0);
    assert.equal(context.get('flowsync.severalServices'), true);
    assert.equal(context.get('flowsync.teamFilter'), true, 'Staging has a team filter');
    assert.equal(context.has('flowsync.state'), false, 'no state before any key is read');
    reads[0].resolve();
    await flushPromises();
    assert.equal(context.has('flowsync.state'), false, 'one service still reads its key');
    reads[1].resolve();
    await flushPromises();
    assert.equal(context.get('flowsync.state'), 'noKey', 'the first service says what to do');
    made[1].configure('ready');
    await flushPromises();
    assert.equal(context.get('flowsync.state'), 'ready', 'ready when any service is');
  });

  // ------------------------------------------------------------------ 2d3d25f: callers before the services are made

  it('a link, command or tool call that arrives before the services are made waits for them (2d3d25f)', async () => {
    const services = registry();
    let found: number | undefined;
    // Before start(): whenMade() starts them and resolves once they exist, never with none.
    void services.whenMade().then(() => (found = services.all.length));
    await flushPromises();
    assert.equal(found, undefined, 'still waiting');
    await clock.advance(0);
    assert.equal(found, 1, 'answered with the service, not "no such service"');
  });

  // ------------------------------------------------------------------ e23cab4: whenRead, bounded by the keyring's timeout

  it("whenRead(): 'read' once the service has read its key, 'timeout' after the keyring's timeout", async () => {
    settings.current = {
      ...settings.current,
      services: [entry('Production', 'https://flow.example.com'), entry('Staging', 'https://staging.example.com')],
    };
    make = (target) => {
      const service = new FakeService(target);
      if (target.name === 'Staging') service.reconfigureWith = never;
      made.push(service);
      return service;
    };
    const services = registry(300);
    const madeNow = services.whenMade();
    await clock.advance(0);
    await madeNow;
    const results: string[] = [];
    void services.whenRead(services.byName('production')!).then((r) => results.push(`Production ${r}`));
    void services.whenRead(services.byName('Staging')!).then((r) => results.push(`Staging ${r}`));
    await clock.advance(299);
    assert.deepEqual(results, ['Production read']);
    await clock.advance(1);
    assert.deepEqual(results, ['Production read', 'Staging timeout']);
  }).timeout(2000);

  // ------------------------------------------------------------------ reconcile

  it('settings changes: a new service is made and started at once, one that left is disposed, one that changed is retargeted', async () => {
    settings.current = { ...settings.current, services: [entry('Production', 'https://flow.example.com')] };
    const services = registry();
    services.setFocused(false);
    const started = services.start();
    await clock.advance(0);
    await started;
    let changes = 0;
    services.onDidChange(() => changes++);
    const [production] = made;

    setServices(entry('Production', 'https://flow.example.com'), entry('Staging', 'https://staging.example.com'));
    assert.equal(changes, 1);
    assert.deepEqual(
      services.all.map((s) => s.name),
      ['Production', 'Staging'],
    );
    assert.equal(services.all[0], production, 'kept, not made again');
    assert.equal(made[1].reconfigures, 1, 'the new one starts at once');
    assert.equal(made[1].focused, false, 'and knows the window is unfocused');
    assert.equal(services.several, true);
    assert.equal(services.byId(made[1].id), made[1]);
    assert.equal(services.byName(' STAGING '), made[1], 'names as the settings compare them');
    assert.equal(services.byName('Test'), undefined);

    setServices(entry('Production', 'https://flow.example.com', '42'), entry('Staging', 'https://staging.example.com'));
    assert.equal(changes, 1, 'the same services in the same order: no change event');
    assert.deepEqual(
      production.retargets.map((t) => t.teamId),
      ['42'],
      'a new team filter retargets it',
    );
    assert.equal(made[1].retargets.length, 0, 'an entry that did not change is left alone');

    setServices(entry('Staging', 'https://staging.example.com'), entry('Production', 'https://flow.example.com', '42'));
    assert.equal(changes, 2, 'a new order is a change');

    setServices(entry('Staging', 'https://staging.example.com'));
    assert.equal(changes, 3);
    assert.equal(production.disposed, true, 'a service that left the settings is disposed');
    assert.equal(services.several, false);
  });

  it('every service re-plans its polls when a place in the interval changes (the window spread)', async () => {
    const orders: string[][] = [];
    spread = {
      order: (ids) => {
        const changed = orders.length === 0 || orders[orders.length - 1].join() !== ids.join();
        orders.push([...ids]);
        return changed;
      },
    };
    settings.current = { ...settings.current, services: [entry('Production', 'https://flow.example.com')] };
    const services = registry();
    void services.start();
    await clock.advance(0);
    setServices(entry('Production', 'https://flow.example.com'), entry('Staging', 'https://staging.example.com'));
    assert.equal(orders.length, 2);
    assert.deepEqual(
      made.map((s) => s.respreads),
      [2, 1],
    );
    setServices(entry('Production', 'https://flow.example.com', '1'), entry('Staging', 'https://staging.example.com'));
    assert.deepEqual(
      made.map((s) => s.respreads),
      [2, 1],
      'the same places: nothing re-planned',
    );
    assert.equal(services.all.length, 2);
  });

  it('a listener of onDidChange that throws: logged; the others still hear of it', async () => {
    const services = registry();
    let heard = 0;
    services.onDidChange(() => {
      throw new Error('listener bug');
    });
    services.onDidChange(() => heard++);
    const started = services.start();
    await clock.advance(0);
    await started;
    assert.equal(heard, 1);
    assert.ok(errors.some((m) => m.includes('A services listener failed') && m.includes('listener bug')));
  });

  it('keysToHide(): the key of every service that has read one (what every inert text masks), and no other', async () => {
    const services = registry();
    assert.deepEqual(services.keysToHide(), [], 'no service before start()');
    setServices(entry('Production', 'https://flow.example.com'), entry('Staging', 'https://staging.example.com'));
    const started = services.start();
    await clock.advance(0);
    await started;
    assert.deepEqual(services.keysToHide(), [], 'no key read yet');
    made[1].explorer.keyToHide = 'fs_staging_key';
    assert.deepEqual(services.keysToHide(), ['fs_staging_key']);
    made[0].explorer.keyToHide = 'fs_production_key';
    assert.deepEqual(services.keysToHide(), ['fs_production_key', 'fs_staging_key'], 'in the order of the settings');
    setServices(entry('Production', 'https://flow.example.com'));
    assert.deepEqual(services.keysToHide(), ['fs_production_key'], "a service that left: its key is no one's to mask");
  });
});
