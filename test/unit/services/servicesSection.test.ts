import * as assert from 'node:assert/strict';
import * as url from '../../../src/api/url';
import { checkedEntries } from '../../../src/services/confusables';
import { readServicesSection, warningsBrought } from '../../../src/services/servicesSection';
import { serviceSettings, serviceTargets } from '../../../src/services/serviceTargets';
import * as webUrl from '../../../src/webPages/webUrl';
import type { SettingsReader } from '../../../src/settings/settingsFeed';

/** What VS Code's inspect() says of flowsync.services: its default (the manifest's, or another extension's), the user's. */
function reader(services: { defaultValue?: unknown; globalValue?: unknown }): SettingsReader {
  return {
    get: (key) => (key === 'services' ? (services.globalValue ?? services.defaultValue) : undefined),
    inspect: (key) => (key === 'services' ? services : undefined),
  };
}

describe("services: flowsync.services from the user's own settings", () => {
  const attacker = [{ name: 'Attacker', url: 'https://attacker.example' }];

  it("another extension's default adds no service (VS Code applies it at the start, application scope or not)", () => {
    const section = readServicesSection(reader({ defaultValue: attacker }), { allowHttp: false });
    assert.deepEqual(section.services, []);
    assert.deepEqual(section.servicesRaw, [], 'nor is it kept by an edit of the entries');
  });

  it("the user's own entries, whatever the default", () => {
    const mine = [{ name: 'Mine', url: 'https://flowsync.example' }];
    const section = readServicesSection(reader({ defaultValue: attacker, globalValue: mine }), { allowHttp: false });
    assert.deepEqual(
      section.services.map((s) => s.name),
      ['Mine'],
    );
    assert.deepEqual(section.servicesRaw, mine);
  });
});

describe("services: web page templates (Open in Browser) from the user's own settings", () => {
  /** What VS Code's get() and inspect() say of flowsync.webUrl and flowsync.services. */
  function webReader(
    webUrl: { defaultValue?: unknown; globalValue?: unknown; merged?: unknown },
    services: unknown = [],
  ): SettingsReader {
    return {
      get: (key) =>
        key === 'webUrl'
          ? (webUrl.merged ?? webUrl.globalValue ?? webUrl.defaultValue)
          : key === 'services'
            ? services
            : undefined,
      inspect: (key) => (key === 'webUrl' ? webUrl : key === 'services' ? { globalValue: services } : undefined),
    };
  }
  const mine = { sync: 'https://app.example.com/flows/{flow_id}/syncs/{id}' };
  const attacker = { sync: 'https://attacker.example/{id}' };

  it("flowsync.webUrl is the one service's, from the user's own value", () => {
    const section = readServicesSection(webReader({ globalValue: mine }), { allowHttp: false });
    assert.equal(section.webUrls.get('default')?.sync?.text, mine.sync);
    assert.deepEqual(section.serviceWarnings, []);
  });

  it("a workspace value (get() merges it in) or another extension's default is ignored", () => {
    // An application-scoped key: VS Code reads no workspace value; were one merged in, inspect() shows no globalValue.
    for (const webUrl of [{ merged: attacker }, { defaultValue: attacker }, { merged: attacker, globalValue: mine }]) {
      const section = readServicesSection(webReader(webUrl), { allowHttp: false });
      const sync = section.webUrls.get('default')?.sync?.text;
      assert.notEqual(sync, attacker.sync, JSON.stringify(webUrl));
      assert.equal(sync, webUrl.globalValue ? mine.sync : undefined);
    }
  });

  it('a refused template is a warning naming the setting; the other kinds are kept', () => {
    const section = readServicesSection(
      webReader({ globalValue: { ...mine, flow: 'command:workbench.action.quit' } }),
      {
        allowHttp: false,
      },
    );
    assert.deepEqual(Object.keys(section.webUrls.get('default') ?? {}), ['sync']);
    assert.deepEqual(section.serviceWarnings, [
      'flowsync.webUrl.flow is ignored: a command: address is never opened; give an https: address.',
    ]);
  });

  it('each entry of flowsync.services has its own webUrl; a refused one never costs the entry', () => {
    const services = [
      { name: 'Production', url: 'https://flowsync.example', webUrl: mine },
      { name: 'Staging', url: 'https://staging.example', webUrl: { team: 'javascript:alert({id})' } },
    ];
    const section = readServicesSection(webReader({ globalValue: attacker }, services), { allowHttp: false });
    assert.deepEqual(
      section.services.map((s) => s.name),
      ['Production', 'Staging'],
    );
    assert.equal(section.webUrls.get(section.services[0].id)?.sync?.text, mine.sync);
    assert.equal(section.webUrls.get(section.services[1].id), undefined);
    assert.equal(section.webUrls.get('default'), undefined, 'flowsync.webUrl is for the service of flowsync.baseUrl');
    assert.deepEqual(section.serviceWarnings, [
      'flowsync.services (service 2 ("Staging")): webUrl.team is ignored: a javascript: address is never opened; give an https: address.',
    ]);
  });
});

describe('services: an entry of flowsync.services is parsed once per settings change', () => {
  it("its URL and its web pages are parsed once, for the section, the registry's check of names and each service's settings", () => {
    const services = [
      { name: 'Production', url: 'https://flowsync.example', webUrl: { sync: 'https://app.example/{id}' } },
      {
        name: 'Staging',
        url: 'https://staging.example/eu',
        teamId: '7',
        webUrl: { flow: 'https://app.example/f/{id}' },
      },
      { name: 'Local', url: 'http://localhost:8080' },
    ];
    const read: SettingsReader = {
      get: (key) => (key === 'services' ? services : undefined),
      inspect: (key) => (key === 'services' ? { globalValue: services } : undefined),
    };
    const urlParses: string[] = [];
    const webParses: unknown[] = [];
    const realUrl = url.parseServiceUrl;
    const realWeb = webUrl.parseWebTemplates;
    (url as { parseServiceUrl: typeof realUrl }).parseServiceUrl = (input, policy) => (
      urlParses.push(input),
      realUrl(input, policy)
    );
    (webUrl as { parseWebTemplates: typeof realWeb }).parseWebTemplates = (raw, setting) => (
      webParses.push(raw),
      realWeb(raw, setting)
    );
    try {
      // One settings change, as the window goes through it: the snapshot (the services' section), the registry (its
      // entries checked by the full look-alike table, the targets), each service's settings (configurationSync).
      const window = { allowHttp: false, autoRefresh: true, refreshIntervalSeconds: 30, requestTimeoutSeconds: 15 };
      const snapshot = { ...window, baseUrl: '', teamId: '', ...readServicesSection(read, window) };
      const entries = checkedEntries(() => assert.fail('no warning'))(snapshot);
      const settings = serviceTargets(snapshot, entries).map((target) => serviceSettings(target, snapshot));
      assert.deepEqual(
        settings.map((s) => s.keySlot),
        ['https://flowsync.example', 'https://staging.example/eu', 'http://localhost:8080'],
      );
      assert.deepEqual(
        urlParses,
        services.map((s) => s.url),
        'each URL parsed once',
      );
      assert.deepEqual(webParses, [services[0].webUrl, services[1].webUrl, undefined], "each entry's web pages once");
    } finally {
      (url as { parseServiceUrl: typeof realUrl }).parseServiceUrl = realUrl;
      (webUrl as { parseWebTemplates: typeof realWeb }).parseWebTemplates = realWeb;
    }
  });
});

describe('services: a web page address with {team_id} is decided when the settings are read (issue #52, item 6)', () => {
  // A flow sync (and a flow) carries no team in the API: only the service's team filter can fill {team_id}.
  const withTeam = {
    sync: 'https://app.example.com/flows/{flow_id}/syncs/{id}?team={team_id}',
    flow: 'https://app.example.com/t/{team_id}/flows/{id}',
    connection: 'https://app.example.com/t/{team_id}/connections/{id}',
  };
  function single(teamId: string | undefined): ReturnType<typeof readServicesSection> {
    const read: SettingsReader = {
      get: (key) => (key === 'webUrl' ? withTeam : key === 'services' ? [] : undefined),
      inspect: (key) =>
        key === 'webUrl' ? { globalValue: withTeam } : key === 'services' ? { globalValue: [] } : undefined,
    };
    return readServicesSection(read, { allowHttp: false, ...(teamId === undefined ? {} : { teamId }) });
  }

  it('filled from the team filter of the service of flowsync.baseUrl: a sync and a flow need no team of their own', () => {
    const templates = single('42').webUrls.get('default');
    assert.ok(templates?.sync && templates.flow && templates.connection);
    assert.equal(
      webUrl.expandWebUrl(templates.sync, { id: 1003, flow_id: 7 }),
      'https://app.example.com/flows/7/syncs/1003?team=42',
    );
    assert.equal(webUrl.expandWebUrl(templates.flow, { id: 7, flow_id: 7 }), 'https://app.example.com/t/42/flows/7');
    // A connection carries its team: its {team_id} stays the row's.
    assert.equal(
      webUrl.expandWebUrl(templates.connection, { id: 5, team_id: 9 }),
      'https://app.example.com/t/9/connections/5',
    );
    assert.deepEqual(single('42').serviceWarnings, []);
  });

  it('without a team filter a sync and a flow are not offered, and a warning names the setting, the kind and why', () => {
    for (const teamId of ['', undefined]) {
      const section = single(teamId);
      assert.deepEqual(Object.keys(section.webUrls.get('default') ?? {}), ['connection'], String(teamId));
      assert.deepEqual(section.serviceWarnings, [
        'flowsync.webUrl.sync is not offered while its service has no team filter: a sync carries no team to fill {team_id}. Filter by team, or take {team_id} out of the address.',
        'flowsync.webUrl.flow is not offered while its service has no team filter: a flow carries no team to fill {team_id}. Filter by team, or take {team_id} out of the address.',
      ]);
    }
  });

  it('each entry of flowsync.services by its own team filter', () => {
    const services = [
      { name: 'Production', url: 'https://flowsync.example', teamId: '42', webUrl: { sync: withTeam.sync } },
      { name: 'Staging', url: 'https://staging.example', webUrl: { sync: withTeam.sync, flow: withTeam.flow } },
    ];
    const read: SettingsReader = {
      get: (key) => (key === 'services' ? services : undefined),
      inspect: (key) => (key === 'services' ? { globalValue: services } : undefined),
    };
    const section = readServicesSection(read, { allowHttp: false, teamId: '7' });
    const production = section.webUrls.get(section.services[0].id);
    assert.ok(production?.sync);
    assert.equal(
      webUrl.expandWebUrl(production.sync, { id: 1, flow_id: 2 }),
      'https://app.example.com/flows/2/syncs/1?team=42',
      "the entry's team, not flowsync.teamId",
    );
    assert.equal(section.webUrls.get(section.services[1].id), undefined, 'Staging has no team filter: nothing offered');
    assert.deepEqual(section.serviceWarnings, [
      'flowsync.services (service 2 ("Staging")): webUrl.sync is not offered while its service has no team filter: a sync carries no team to fill {team_id}. Filter by team, or take {team_id} out of the address.',
      'flowsync.services (service 2 ("Staging")): webUrl.flow is not offered while its service has no team filter: a flow carries no team to fill {team_id}. Filter by team, or take {team_id} out of the address.',
    ]);
  });
});

describe('services: a settings warning is said when a change brings it (issue #52, item 6)', () => {
  it('the {team_id} warning is said each time the team filter is taken away, never again while it stays', () => {
    const pages = { sync: 'https://app.example.com/syncs/{id}?team={team_id}' };
    const read: SettingsReader = {
      get: (key) => (key === 'webUrl' ? pages : key === 'services' ? [] : undefined),
      inspect: (key) =>
        key === 'webUrl' ? { globalValue: pages } : key === 'services' ? { globalValue: [] } : undefined,
    };
    const said: string[][] = [];
    let before: ReadonlySet<string> = new Set();
    for (const teamId of ['', '', '42', '', '7', '']) {
      const change = warningsBrought(before, readServicesSection(read, { allowHttp: false, teamId }).serviceWarnings);
      before = change.now;
      said.push(change.said.map((w) => w.slice(0, 24)));
    }
    assert.deepEqual(said, [
      ['flowsync.webUrl.sync is '],
      [],
      [],
      ['flowsync.webUrl.sync is '],
      [],
      ['flowsync.webUrl.sync is '],
    ]);
  });
});
