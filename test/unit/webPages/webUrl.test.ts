import * as assert from 'node:assert/strict';
import {
  MAX_WEB_URL_CHARS,
  expandWebUrl,
  parseWebTemplate,
  parseWebTemplates,
  webContextSuffix,
  type WebTemplate,
} from '../../../src/webPages/webUrl';

function template(text: string): WebTemplate {
  const parsed = parseWebTemplate(text);
  assert.ok(!('problem' in parsed), `refused: ${'problem' in parsed ? parsed.problem : ''}`);
  return parsed;
}

function problem(raw: unknown): string {
  const parsed = parseWebTemplate(raw);
  assert.ok('problem' in parsed, `accepted: ${JSON.stringify(raw)}`);
  return parsed.problem;
}

describe('webPages: web page templates (Open in Browser)', () => {
  describe('a template is refused, with a sentence that says why', () => {
    it('another scheme (ftp:, ws:, mailto:)', () => {
      for (const text of ['ftp://files.example.com/{id}', 'ws://app.example.com/{id}', 'mailto:a@example.com?x={id}']) {
        assert.match(problem(text), /never opened; give an https: address/, text);
      }
    });

    it('javascript:, command:, file:, data:, vscode: (whatever their letter case)', () => {
      for (const [text, scheme] of [
        ['javascript:alert({id})', 'javascript:'],
        ['JavaScript:alert(1)//{id}', 'javascript:'],
        ['command:workbench.action.terminal.new?{id}', 'command:'],
        ['file:///etc/passwd#{id}', 'file:'],
        ['data:text/html,<b>{id}</b>', 'data:'],
        ['vscode://flowsync.flowsync-explorer/sync?id={id}', 'vscode:'],
        ['  javascript:alert(1)', 'javascript:'],
      ]) {
        assert.equal(problem(text), `a ${scheme} address is never opened; give an https: address.`, text);
      }
    });

    it('plain http: to another machine (allowed only for localhost, 127.0.0.1, ::1)', () => {
      assert.match(problem('http://app.example.com/syncs/{id}'), /plain http: is allowed only for this machine/);
      for (const local of ['http://localhost:8080/s/{id}', 'http://127.0.0.1/s/{id}', 'http://[::1]:3000/s/{id}']) {
        template(local);
      }
    });

    it('an unknown placeholder, named', () => {
      assert.equal(
        problem('https://app.example.com/flows/{flowId}/syncs/{id}'),
        'it has the unknown placeholder {flowId}; the known ones are {id}, {flow_id}, {team_id}.',
      );
      assert.match(problem('https://app.example.com/{key}'), /unknown placeholder \{key\}/);
      assert.match(problem('https://app.example.com/{id'), /brace that is not a placeholder/);
    });

    it(`longer than ${MAX_WEB_URL_CHARS} characters`, () => {
      const base = 'https://app.example.com/{id}?';
      template(base + 'a'.repeat(MAX_WEB_URL_CHARS - base.length));
      assert.equal(
        problem(base + 'a'.repeat(MAX_WEB_URL_CHARS - base.length + 1)),
        'it is longer than 2,000 characters.',
      );
    });

    it('a user name or password, a placeholder in the host, no address, not a text', () => {
      assert.match(problem('https://user:pw@app.example.com/{id}'), /user name or password/);
      assert.match(problem('https://{id}.example.com/'), /may not be part of its host/);
      assert.match(problem('https://app.example.com:{id}/'), /may not be part of its host|not an address/);
      assert.match(problem('app.example.com/{id}'), /not an address/);
      assert.match(problem(42), /must be a text/);
      assert.match(problem(''), /empty/);
    });
  });

  describe('a setting of templates per kind', () => {
    it('keeps the good kinds and names the setting and kind of each refused one', () => {
      const { templates, warnings } = parseWebTemplates(
        {
          sync: 'https://app.example.com/flows/{flow_id}/syncs/{id}',
          flow: 'javascript:alert({id})',
          team: 'https://app.example.com/teams/{x}',
          run: 'https://app.example.com/{id}',
        },
        'flowsync.webUrl',
      );
      assert.deepEqual(Object.keys(templates), ['sync']);
      assert.deepEqual(warnings, [
        'flowsync.webUrl.flow is ignored: a javascript: address is never opened; give an https: address.',
        'flowsync.webUrl.team is ignored: it has the unknown placeholder {x}; the known ones are {id}, {flow_id}, {team_id}.',
        'flowsync.webUrl.run is ignored: the kinds are sync, flow, connection, team.',
      ]);
    });

    it('unset is none, a value that is not an object is one warning', () => {
      assert.deepEqual(parseWebTemplates(undefined, 'flowsync.webUrl'), { templates: {}, warnings: [] });
      const { templates, warnings } = parseWebTemplates('https://app.example.com/{id}', 'flowsync.webUrl');
      assert.deepEqual(templates, {});
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /^flowsync\.webUrl is ignored: it must be an object/);
    });
  });

  describe('expansion', () => {
    const sync = template('https://app.example.com/flows/{flow_id}/syncs/{id}?team={team_id}');

    it("fills each placeholder with the row's integer", () => {
      assert.equal(
        expandWebUrl(sync, { id: 1003, flow_id: 7, team_id: 42 }),
        'https://app.example.com/flows/7/syncs/1003?team=42',
      );
      assert.equal(expandWebUrl(template('http://localhost:8080/c/{id}'), { id: 0 }), 'http://localhost:8080/c/0');
    });

    it('refuses a value that is not a safe non-negative integer (and a missing one)', () => {
      for (const id of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, NaN, Infinity, '1003', '../admin', undefined, null]) {
        assert.equal(expandWebUrl(sync, { id, flow_id: 7, team_id: 42 }), undefined, String(id));
      }
      assert.equal(expandWebUrl(sync, { id: 1003, flow_id: 7 }), undefined, 'no team_id');
    });

    it("keeps the template's origin (a value can never move the host)", () => {
      // parseWebTemplate refuses a placeholder in the host; a template made by hand is still checked at expansion.
      const handMade: WebTemplate = { text: 'https://{id}.example.com/', origin: 'https://0.example.com' };
      assert.equal(expandWebUrl(handMade, { id: 7 }), undefined);
      assert.equal(expandWebUrl(handMade, { id: 0 }), 'https://0.example.com/');
    });
  });

  describe("a row's context value (where the menu offers Open in Browser)", () => {
    const { templates } = parseWebTemplates(
      { sync: 'https://app.example.com/s/{id}', team: 'https://app.example.com/t/{id}' },
      'flowsync.webUrl',
    );

    it('ends with .web for a kind its service has a page for (a History run is a sync)', () => {
      assert.equal(webContextSuffix('flowsync.sync', templates), '.web');
      assert.equal(webContextSuffix('flowsync.historyEntry', templates), '.web');
      assert.equal(webContextSuffix('flowsync.team', templates), '.web');
    });

    it('nothing for another kind, a row of no kind, or a service without templates', () => {
      assert.equal(webContextSuffix('flowsync.flow', templates), '');
      assert.equal(webContextSuffix('flowsync.connection', templates), '');
      assert.equal(webContextSuffix('flowsync.status', templates), '');
      assert.equal(webContextSuffix('toString', templates), '');
      assert.equal(webContextSuffix('flowsync.sync', undefined), '');
    });
  });
});
