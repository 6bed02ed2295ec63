/**
 * ConfigurationSync in plain Node, with a stand-in for the `vscode` module: a settings change that keeps a service's
 * key slot reaches its Explorer in the same turn (the views never show the rows of the old team filter beside the
 * new filter's web pages while a key is read), and a key is only ever reused for the exact slot it was read for.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Emitter } from '../../../../src/base/events';
import type { ExplorerConfig } from '../../../../src/lists/explorer';
import type { ConfigurationSync } from '../../../../src/services/vscode/configurationSync';
import type { ServiceTarget } from '../../../../src/services/serviceTargets';

// Compiled to out/test/unit/services/vscode/: the repository root is five levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { fakeVscode, useVscode } = require(
  path.join(root, 'test', 'unit', 'helpers', 'vscodeStandIn.js'),
) as typeof import('../../helpers/vscodeStandIn');

const A = 'https://flowsync.example.com/a';
const B = 'https://flowsync.example.com/b';

/** The window's settings as serviceSettings reads them. */
const SETTINGS = { allowHttp: false, requestTimeoutSeconds: 30, autoRefresh: true, refreshIntervalSeconds: 30 };

/** A key read that the test answers when it wants (SecretStorage is a round trip to the workbench). */
interface PendingRead {
  readonly slot: string;
  answer(key: string | undefined): void;
  fail(error: Error): void;
}

function harness(first: { baseUrl: string; teamId: string }) {
  let target: ServiceTarget = { id: 'default', bind: 'origin', ...first };
  const settingsChanged = new Emitter<void>();
  const keysChanged = new Emitter<void>();
  const reads: PendingRead[] = [];
  const configured: ExplorerConfig[] = [];
  const options = {
    explorer: { configure: (config: ExplorerConfig) => configured.push(config) },
    target: () => target,
    settings: { current: { ...SETTINGS, services: [] }, onDidChange: settingsChanged.event },
    keys: {
      get: (slot: string) =>
        new Promise<string | undefined>((resolve, reject) => reads.push({ slot, answer: resolve, fail: reject })),
      onDidChange: keysChanged.event,
    },
    log: { error: () => undefined },
    userAgent: 'test',
  };
  return {
    options,
    reads,
    configured,
    /** The settings now describe the service so (the registry retargets it, then the settings' own event comes). */
    change(next: { baseUrl: string; teamId: string }, sync: ConfigurationSync) {
      target = { ...target, ...next };
      const applied = sync.apply({ keyKept: true });
      settingsChanged.fire();
      return applied;
    },
    keyChanged: () => keysChanged.fire(),
  };
}

describe('ConfigurationSync: the settings and the key a service applies', () => {
  let restore: () => void;
  let Sync: typeof ConfigurationSync;
  before(() => {
    restore = useVscode(fakeVscode(), 'vscode-stand-in-configuration-sync');
    /* eslint-disable @typescript-eslint/no-require-imports */
    const module =
      require('../../../../src/services/vscode/configurationSync') as typeof import('../../../../src/services/vscode/configurationSync');
    /* eslint-enable @typescript-eslint/no-require-imports */
    Sync = module.ConfigurationSync;
  });
  after(() => restore());

  /** A sync whose first key read (of A) was answered `key`. */
  async function started(key: string | undefined = 'fs_key_a') {
    const h = harness({ baseUrl: A, teamId: '' });
    const sync = new Sync(h.options as never);
    const first = sync.apply();
    assert.equal(h.reads.length, 1);
    h.reads[0].answer(key);
    await first;
    return { h, sync };
  }

  it('a new team filter reaches the Explorer in the same turn, with the key read before, and no key is read again', async () => {
    const { h, sync } = await started();
    void h.change({ baseUrl: A, teamId: '2' }, sync);
    // in the same turn: no await between the settings change and what the Explorer applies
    assert.equal(h.configured.at(-1)?.teamId, '2');
    assert.equal(h.configured.at(-1)?.apiKey, 'fs_key_a');
    assert.equal(h.reads.length, 1, 'no second read of the same slot');
    sync.dispose();
  });

  it('another URL (another key slot) reads its own key: the key of A is never applied to B', async () => {
    const { h, sync } = await started();
    const applied = h.change({ baseUrl: B, teamId: '' }, sync);
    assert.equal(h.configured.at(-1)?.baseUrl, A, 'nothing applied for B before its key is read');
    assert.ok(h.reads.length > 1, "B's key is read");
    assert.ok(
      h.reads.slice(1).every((r) => r.slot !== h.reads[0].slot),
      "only B's slot is read",
    );
    for (const read of h.reads.slice(1)) read.answer(undefined);
    await applied;
    assert.equal(h.configured.at(-1)?.baseUrl, B);
    assert.equal(h.configured.at(-1)?.apiKey, undefined);
    sync.dispose();
  });

  it('a changed key is read again; a settings change while that read is under way waits for it', async () => {
    const { h, sync } = await started();
    h.keyChanged();
    assert.equal(h.reads.length, 2);
    const applied = h.change({ baseUrl: A, teamId: '7' }, sync);
    const reads = h.reads.length;
    for (const read of h.reads.slice(1)) read.answer('fs_key_a_new');
    await applied;
    assert.ok(reads >= 2);
    assert.equal(h.configured.at(-1)?.apiKey, 'fs_key_a_new', 'the new key is not lost to the settings change');
    assert.equal(h.configured.at(-1)?.teamId, '7');
    sync.dispose();
  });

  it('no key found, or a failed read: the next settings change reads again', async () => {
    for (const outcome of ['none', 'failed'] as const) {
      const h = harness({ baseUrl: A, teamId: '' });
      const sync = new Sync(h.options as never);
      const first = sync.apply();
      if (outcome === 'none') h.reads[0].answer(undefined);
      else h.reads[0].fail(new Error('the keyring is locked'));
      await first;
      const applied = h.change({ baseUrl: A, teamId: '3' }, sync);
      assert.ok(h.reads.length >= 2, `${outcome}: read again`);
      for (const read of h.reads.slice(1)) read.answer('fs_key_a');
      await applied;
      assert.equal(h.configured.at(-1)?.apiKey, 'fs_key_a');
      sync.dispose();
    }
  });

  it('a key removed (the key event reads none): the next settings change reads again, and applies no key', async () => {
    const { h, sync } = await started();
    h.keyChanged();
    h.reads[1].answer(undefined);
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(h.configured.at(-1)?.apiKey, undefined);
    const applied = h.change({ baseUrl: A, teamId: '4' }, sync);
    assert.equal(h.configured.at(-1)?.teamId, '', 'not applied with the removed key in the same turn');
    assert.ok(h.reads.length > 2, 'read again');
    for (const read of h.reads.slice(2)) read.answer(undefined);
    await applied;
    assert.deepEqual([h.configured.at(-1)?.teamId, h.configured.at(-1)?.apiKey], ['4', undefined]);
    sync.dispose();
  });

  it('an older read that answers after a newer one is not the key kept: the newer read is', async () => {
    const { h, sync } = await started();
    h.keyChanged(); // read 1: answers late, with the key of then
    const newer = sync.apply(); // read 2: answers first, with the key of now
    h.reads[2].answer('fs_key_now');
    h.reads[1].answer('fs_key_then');
    await newer;
    assert.equal(h.configured.at(-1)?.apiKey, 'fs_key_now');
    void h.change({ baseUrl: A, teamId: '5' }, sync);
    assert.deepEqual([h.configured.at(-1)?.teamId, h.configured.at(-1)?.apiKey], ['5', 'fs_key_now']);
    sync.dispose();
  });

  it('a read that fails after the key was found forgets it: the next settings change reads again', async () => {
    const { h, sync } = await started();
    const failed = sync.apply();
    h.reads[1].fail(new Error('the keyring is locked'));
    await failed;
    assert.equal(h.configured.at(-1)?.apiKey, undefined);
    assert.ok(h.configured.at(-1)?.secretsError, 'says why');
    void h.change({ baseUrl: A, teamId: '6' }, sync);
    assert.ok(h.reads.length > 2, 'read again, not the key found before the failure');
    assert.notEqual(h.configured.at(-1)?.apiKey, 'fs_key_a');
    sync.dispose();
  });

  it('an explicit apply() (a key set, a reconfigure) always reads the key', async () => {
    const { h, sync } = await started();
    const applied = sync.apply();
    assert.equal(h.reads.length, 2);
    h.reads[1].answer('fs_key_a_set');
    await applied;
    assert.equal(h.configured.at(-1)?.apiKey, 'fs_key_a_set');
    sync.dispose();
  });
});
