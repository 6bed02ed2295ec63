import * as assert from 'node:assert/strict';
import { Emitter } from '../../../src/base/events';
import { eachService, MAX_SERVICE_NAME, serviceName } from '../../../src/base/serviceSet';
import { MAX_SERVICE_NAME as ENTRIES_MAX } from '../../../src/services/serviceEntries';

describe('serviceName: the one way a service is named where a person reads it', () => {
  it('with several services: its name, inert; with one, or the service of flowsync.baseUrl: none', () => {
    assert.equal(serviceName({ several: true }, { name: 'Production' }), 'Production');
    assert.equal(
      serviceName({ several: false }, { name: 'Production' }),
      undefined,
      'one service: nothing to tell apart',
    );
    assert.equal(serviceName({ several: true }, {}), undefined, 'the service of flowsync.baseUrl has no name');
    assert.equal(
      serviceName({ several: true }, { name: 'Prod\u202euction\n' }),
      'Production',
      'no bidi override, no line break',
    );
    assert.equal(serviceName({ several: true }, { name: '$(alert) x' })!.includes('$('), false, 'no icon syntax');
  });

  it('at most as long as flowsync.services lets a name be', () => {
    assert.equal(MAX_SERVICE_NAME, ENTRIES_MAX);
    assert.ok(serviceName({ several: true }, { name: 'x'.repeat(500) })!.length <= MAX_SERVICE_NAME);
  });
});

describe('eachService: the one way to follow the set of services', () => {
  /** A service set whose services a test sets, telling its listeners as the registry does. */
  class FakeServices<S> {
    all: readonly S[] = [];
    private readonly changes = new Emitter<void>();
    readonly onDidChange = this.changes.event;
    get listeners(): number {
      return this.changes.listenerCount;
    }
    set(all: readonly S[]): void {
      this.all = all;
      this.changes.fire();
    }
  }
  const a = { id: 'a' };
  const b = { id: 'b' };
  const c = { id: 'c' };

  it('sets up each service now and each one added; lets go of each one removed, once; keeps those that stay', () => {
    const services = new FakeServices<{ id: string }>();
    services.all = [a, b];
    const log: string[] = [];
    const following = eachService(services, (s) => {
      log.push(`+${s.id}`);
      return { dispose: () => log.push(`-${s.id}`) };
    });
    assert.deepEqual(log, ['+a', '+b'], 'the services there now');
    services.set([b, c]);
    assert.deepEqual(log, ['+a', '+b', '-a', '+c'], 'the one gone let go first, then the new one; b stays as it is');
    services.set([c, b]);
    assert.deepEqual(log.length, 4, 'a new order sets nothing up again');
    following.dispose();
    assert.deepEqual(log.slice(4).sort(), ['-b', '-c'], 'all let go on dispose');
    assert.equal(services.listeners, 0, 'and the set is no longer followed');
    services.set([a]);
    assert.equal(log.length, 6, 'nothing after dispose');
  });

  it('a service made again (a new object with the same id) is a new service: the old one is let go', () => {
    const services = new FakeServices<{ id: string }>();
    services.all = [a];
    const live = new Set<object>();
    const following = eachService(services, (s) => (live.add(s), { dispose: () => live.delete(s) }));
    const again = { id: 'a' };
    services.set([again]);
    assert.deepEqual([...live], [again]);
    following.dispose();
  });

  it('`changed` runs after each change, once every service is set up, and not at the start', () => {
    const services = new FakeServices<{ id: string }>();
    const setUp: string[] = [];
    const seen: string[][] = [];
    eachService(
      services,
      (s) => (setUp.push(s.id), { dispose: () => undefined }),
      () => seen.push([...setUp]),
    );
    assert.deepEqual(seen, []);
    services.set([a, b]);
    services.set([]);
    assert.deepEqual(seen, [
      ['a', 'b'],
      ['a', 'b'],
    ]);
  });
});
