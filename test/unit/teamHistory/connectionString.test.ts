import * as assert from 'node:assert/strict';
import { parseConnectionString } from '../../../src/teamHistory/connectionString';

describe('teamHistory connection string', () => {
  it('reads the fields the driver is given, and a label without the password', () => {
    assert.deepEqual(parseConnectionString('postgres://anna:s%40cr%3At@db.example.com:6543/team?sslmode=require'), {
      target: {
        host: 'db.example.com',
        port: 6543,
        database: 'team',
        user: 'anna',
        password: 's@cr:t',
        sslmode: 'require',
        local: false,
        label: 'anna@db.example.com:6543/team',
      },
    });
  });

  it('verifies TLS by default off this machine; plain TCP by default to this machine', () => {
    const mode = (url: string) => {
      const parsed = parseConnectionString(url);
      return 'target' in parsed ? [parsed.target.sslmode, parsed.target.local] : parsed.problem;
    };
    assert.deepEqual(mode('postgresql://a:b@db.example.com/x'), ['verify-full', false]);
    assert.deepEqual(mode('postgres://a:b@localhost/x'), ['disable', true]);
    assert.deepEqual(mode('postgres://a:b@127.0.0.1:5433/x'), ['disable', true]);
    assert.deepEqual(mode('postgres://a:b@[::1]/x'), ['disable', true]);
    assert.deepEqual(mode('postgres://a:b@localhost/x?sslmode=verify-full'), ['verify-full', true]);
    assert.deepEqual(mode('postgres://a:b@db.example.com/x?sslmode=disable'), ['disable', false]);
    assert.deepEqual(
      mode('postgres://a:b@db.example.com/x?sslmode=prefer'),
      ['require', false],
      'never falls back to plain',
    );
    assert.deepEqual(mode('postgres://a:b@db.example.com/x?sslmode=verify-ca'), ['verify-ca', false]);
  });

  it('says what is wrong, never with the string', () => {
    const problem = (url: string) => {
      const parsed = parseConnectionString(url);
      return 'problem' in parsed ? parsed.problem : 'ok';
    };
    assert.equal(problem('mysql://a:b@h/x'), 'notPostgres');
    assert.equal(problem('https://a:b@h/x'), 'notPostgres');
    assert.equal(problem('postgres://a:b@h1,h2/x'), 'severalHosts');
    assert.equal(problem('postgres://a:b@h:99999/x'), 'badPort');
    assert.equal(problem('postgres://a:b@h/'), 'noDatabase');
    assert.equal(problem('postgres://h/x'), 'noUser');
    assert.equal(problem('postgres://a:b@h/x?sslmode=sometimes'), 'badSslMode');
    assert.equal(problem(`postgres://a:b@h/${'x'.repeat(3000)}`), 'tooLong');
    assert.equal(problem('postgres://a:%E0%A4%A@h/x'), 'noUser', 'a password that is not percent-encoding');
    // No password: the driver would take PGPASSWORD from the extension host's environment and send it to that host.
    assert.equal(problem('postgres://u@attacker.example/db'), 'noUser', 'a user without a password');
    assert.equal(problem('postgres://u:@attacker.example/db'), 'noUser', 'an empty password');
  });

  it("the store's name is data: a user or database name that decodes to markup is shown inert", () => {
    const parsed = parseConnectionString(
      'postgres://%5BFix%5D(command%3Aworkbench.action.quit):pw@h/%3Cimg%20src%3Dx%3E',
    );
    assert.ok('target' in parsed);
    assert.doesNotMatch(parsed.target.label, /\[Fix\]\(command:|<img/, parsed.target.label);
    assert.equal(parsed.target.user, '[Fix](command:workbench.action.quit)', 'the driver is given the name as written');
  });

  it('passes nothing else of the string on: other parameters are not fields of the target', () => {
    const parsed = parseConnectionString('postgres://a:b@h/x?options=-c%20search_path%3Devil&host=evil.example.com');
    assert.ok('target' in parsed);
    assert.equal(parsed.target.host, 'h');
    assert.deepEqual(Object.keys(parsed.target).sort(), [
      'database',
      'host',
      'label',
      'local',
      'password',
      'port',
      'sslmode',
      'user',
    ]);
  });
});
