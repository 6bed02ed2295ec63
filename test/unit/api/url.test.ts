import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { isLoopbackHost, parseServiceUrl } from '../../../src/api/url';

function rejects(input: string, pattern: RegExp, allowHttp = false): void {
  assert.throws(
    () => parseServiceUrl(input, { allowHttp }),
    (e: unknown) => e instanceof ApiError && e.kind === 'invalidUrl' && pattern.test(e.message),
  );
}

describe('parseServiceUrl', () => {
  it('normalises trailing slashes and keeps a path prefix', () => {
    assert.deepEqual(parseServiceUrl('https://flow.example.com/'), {
      baseUrl: 'https://flow.example.com',
      origin: 'https://flow.example.com',
    });
    assert.deepEqual(parseServiceUrl('  https://host.example/flowsync///  '), {
      baseUrl: 'https://host.example/flowsync',
      origin: 'https://host.example',
    });
    assert.equal(parseServiceUrl('https://HOST.example:8443/a/b').baseUrl, 'https://host.example:8443/a/b');
  });

  it('cuts a pasted endpoint URL back to its base', () => {
    assert.equal(
      parseServiceUrl('https://h.example/fs/api/public/v1/connections/index').baseUrl,
      'https://h.example/fs',
    );
  });

  it('allows plain http for loopback only, unless allowed explicitly', () => {
    assert.equal(parseServiceUrl('http://127.0.0.1:4010').origin, 'http://127.0.0.1:4010');
    assert.equal(parseServiceUrl('http://localhost:4010').origin, 'http://localhost:4010');
    assert.equal(parseServiceUrl('http://[::1]:4010').origin, 'http://[::1]:4010');
    rejects('http://flow.example.com', /unencrypted.*flowsync\.allowHttp/);
    assert.equal(parseServiceUrl('http://flow.example.com', { allowHttp: true }).origin, 'http://flow.example.com');
  });

  it('refuses credentials, other schemes, queries, and non-URLs with a message that says what to fix', () => {
    rejects('https://user:pw@flow.example.com', /user name or password/);
    rejects('ftp://flow.example.com', /must start with https/);
    rejects('file:///etc/passwd', /must start with https/);
    rejects('https://flow.example.com/?a=1', /query/);
    rejects('flow.example.com', /is not a URL/);
    rejects('   ', /No service URL/);
  });

  it('knows loopback hosts', () => {
    for (const h of ['localhost', '127.0.0.1', '127.3.2.1', '[::1]']) assert.ok(isLoopbackHost(h), h);
    for (const h of ['10.0.0.1', 'localhost.example.com', '128.0.0.1', 'example.com', 'api.localhost']) {
      assert.ok(!isLoopbackHost(h), h);
    }
  });
});

describe('isLoopbackHost', () => {
  it('counts only localhost itself, 127.0.0.0/8 and ::1 as loopback (not every *.localhost name)', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.255.0.9', '[::1]', '::1']) {
      assert.equal(isLoopbackHost(host), true, host);
    }
    for (const host of [
      'evil.localhost',
      'localhost.evil.com',
      '127.0.0.1.nip.io',
      '128.0.0.1',
      '0.0.0.0',
      '[::ffff:7f00:1]',
      '10.0.0.1',
    ]) {
      assert.equal(isLoopbackHost(host), false, host);
    }
    rejects('http://flowsync.localhost:4010', /unencrypted/);
  });
});
