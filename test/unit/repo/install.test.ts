import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Compiled to out/test/unit/repo/: the repository root is four levels up.
const root = path.resolve(__dirname, '..', '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));

type Version = [number, number, number];

/** Packages `npm ci` installs from the lockfile: install path → entry (the root project left out). */
const installed: Array<[string, { version: string; engines?: { node?: string }; hasInstallScript?: boolean }]> =
  Object.entries(lock.packages).filter(([key]) => key !== '') as never;
const nameOf = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * Whether `version` satisfies a semver `range` of the forms packages put in `engines.node` (`>=20`, `>= 20.0.0`,
 * `^20.19.0 || >=22.12.0`, `18 || 20 || >=22`, `>=16 || 14 >=14.17`, `*`). A form it does not know fails the test
 * naming it, rather than passing unchecked.
 */
function satisfies(version: Version, range: string): boolean {
  if (range.trim() === '' || range.trim() === '*') return true;
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/([<>=^~]+)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => {
        const m = /^(>=|<=|>|<|=|\^|~)?v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?$/.exec(comparator);
        assert.ok(m, `engines.node range "${range}": cannot read "${comparator}"`);
        const [, op = '=', ...parts] = m;
        const given = parts.map((p) => (p === undefined || /^[xX*]$/.test(p) ? undefined : Number(p)));
        const [major, minor, patch] = given;
        if (major === undefined) return true;
        const low: Version = [major, minor ?? 0, patch ?? 0];
        /** The first version after every version the partial `major[.minor]` names. */
        const afterPartial: Version =
          minor === undefined
            ? [major + 1, 0, 0]
            : patch === undefined
              ? [major, minor + 1, 0]
              : [major, minor, patch + 1];
        switch (op) {
          case '>=':
            return compare(version, low) >= 0;
          case '>':
            return compare(version, afterPartial) >= 0 && compare(version, low) > 0;
          case '<':
            return compare(version, low) < 0;
          case '<=':
            return compare(version, afterPartial) < 0;
          case '~':
            return (
              compare(version, low) >= 0 &&
              compare(version, minor === undefined ? [major + 1, 0, 0] : [major, minor + 1, 0]) < 0
            );
          case '^':
            return (
              compare(version, low) >= 0 &&
              compare(
                version,
                major > 0 || minor === undefined
                  ? [major + 1, 0, 0]
                  : minor > 0 || patch === undefined
                    ? [0, minor + 1, 0]
                    : [0, 0, patch + 1],
              ) < 0
            );
          default:
            return compare(version, low) >= 0 && compare(version, afterPartial) < 0;
        }
      }),
  );
}

/** The lowest version of each `||` alternative of the project's engines.node (`^20.19.0 || >=24` → 20.19.0, 24.0.0). */
function lowestOfEachAlternative(range: string): Version[] {
  return range.split('||').map((alternative) => {
    const m = /^\s*(?:\^|>=\s*)(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(alternative);
    assert.ok(m, `package.json engines.node: write each alternative as ^x.y.z or >=x.y.z, not "${alternative.trim()}"`);
    return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
  });
}

describe('A fresh install (npm ci on the Node the project says)', () => {
  it('the range reader reads the forms of engines.node in the lockfile as npm does', () => {
    assert.ok(satisfies([20, 19, 0], '^20.19.0 || >=22.12.0'));
    assert.ok(!satisfies([20, 18, 9], '^20.19.0 || >=22.12.0'));
    assert.ok(!satisfies([21, 0, 0], '^20.19.0 || >=22.12.0'));
    assert.ok(!satisfies([20, 20, 2], '>= 22'));
    assert.ok(satisfies([20, 20, 2], '18 || 20 || >=22'));
    assert.ok(!satisfies([19, 9, 0], '18 || 20 || >=22'));
    assert.ok(satisfies([14, 17, 0], '>=16 || 14 >=14.17'));
    assert.ok(!satisfies([14, 16, 0], '>=16 || 14 >=14.17'));
    assert.ok(satisfies([0, 7, 3], '>=0.6.11 <=0.7.0 || >=0.7.3'));
    assert.ok(!satisfies([0, 7, 1], '>=0.6.11 <=0.7.0 || >=0.7.3'));
    assert.ok(satisfies([16, 0, 0], '^12.20.0 || ^14.13.1 || >=16.0.0'));
    assert.ok(!satisfies([13, 0, 0], '^12.20.0 || ^14.13.1 || >=16.0.0'));
    assert.ok(satisfies([24, 1, 0], '*'));
    assert.throws(() => satisfies([20, 0, 0], '>=20 <=lts'), /cannot read "<=lts"/);
  });

  it('package.json says which Node the project needs, and .nvmrc names a Node it admits', () => {
    const range = manifest.engines?.node;
    assert.equal(typeof range, 'string', 'package.json has no engines.node');
    const lows = lowestOfEachAlternative(range);
    const nvmrc = fs.readFileSync(path.join(root, '.nvmrc'), 'utf8').trim();
    assert.match(nvmrc, /^\d+$/, '.nvmrc: a major version, as nvm and setup-node read it');
    assert.ok(
      lows.some(([major]) => major === Number(nvmrc)),
      `.nvmrc says Node ${nvmrc}, which engines.node "${range}" does not admit`,
    );
  });

  it('every package the lockfile installs runs on every Node that engines.node admits (npm ci prints no EBADENGINE)', () => {
    const lows = lowestOfEachAlternative(manifest.engines.node);
    const refused: string[] = [];
    for (const [key, entry] of installed) {
      const wants = entry.engines?.node;
      if (wants === undefined) continue;
      for (const low of lows) {
        if (!satisfies(low, wants)) {
          refused.push(`${nameOf(key)}@${entry.version} wants node ${wants}, not ${low.join('.')}`);
        }
      }
    }
    assert.deepEqual(refused, []);
  });

  it('every install script in the lockfile has a decision in allowScripts, and every decision a package', () => {
    const policy: Record<string, unknown> = manifest.allowScripts ?? {};
    const withScripts = installed
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([key, entry]) => ({ name: nameOf(key), version: entry.version }));
    /** An allowScripts key covers a package by name, or by name@version (exact versions joined by ||), as npm 11 reads it. */
    const covers = (key: string, p: { name: string; version: string }) => {
      const at = key.lastIndexOf('@');
      if (at <= 0) return key === p.name;
      return (
        key.slice(0, at) === p.name &&
        key
          .slice(at + 1)
          .split('||')
          .map((v) => v.trim())
          .includes(p.version)
      );
    };
    assert.deepEqual(
      withScripts
        .filter((p) => !Object.keys(policy).some((key) => covers(key, p)))
        .map((p) => `${p.name}@${p.version}`),
      [],
      'install scripts no one decided on: npm ci warns, and --strict-allow-scripts fails',
    );
    for (const [key, allowed] of Object.entries(policy)) {
      assert.equal(typeof allowed, 'boolean', `allowScripts["${key}"]: true (runs) or false (skipped)`);
      assert.ok(
        withScripts.some((p) => covers(key, p)),
        `allowScripts["${key}"] matches no installed package with an install script (npm install-scripts prune)`,
      );
    }
  });

  it('CI installs strictly: a new, unreviewed install script fails .ci/run instead of running', () => {
    const ci = fs.readFileSync(path.join(root, '.ci', 'run'), 'utf8');
    const install = ci.split('\n').filter((line) => /^\s*npm ci\b/.test(line));
    assert.equal(install.length, 1, `.ci/run: one npm ci line, found ${install.length}`);
    assert.match(install[0], /\s--strict-allow-scripts\b/);
  });
});
