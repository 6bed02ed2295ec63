import * as assert from 'node:assert/strict';
import { readServicesSection } from '../../../src/services/servicesSection';
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
