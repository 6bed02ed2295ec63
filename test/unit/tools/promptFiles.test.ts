import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The manifest's language model tools and prompt files (issue #52, item 8), read as VS Code reads them. */
const root = path.resolve(__dirname, '../../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const tools: Array<{ name: string; toolReferenceName: string }> = manifest.contributes.languageModelTools;
const prompts: Array<{ path: string }> = manifest.contributes.chatPromptFiles ?? [];

/** A prompt file's YAML front matter (the flat keys it uses: name, description, agent, tools) and its body. */
function promptFile(file: string): { head: Record<string, string>; tools: string[]; body: string } {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  assert.ok(match, `${file} begins with a front matter between --- lines`);
  const head: Record<string, string> = {};
  for (const line of match[1].split('\n')) {
    const at = line.indexOf(':');
    assert.ok(at > 0, `${file}: a front matter line is "key: value": ${line}`);
    head[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  const list = /^\[(.*)\]$/.exec(head.tools ?? '');
  assert.ok(list, `${file} lists its tools`);
  return { head, tools: list[1].split(',').map((t) => t.trim().replace(/^'|'$/g, '')), body: match[2] };
}

describe('language model tools: the shipped prompt "triage stuck syncs" (chatPromptFiles)', () => {
  it('is contributed once, as a .prompt.md inside the extension, with a name and a description', () => {
    assert.deepEqual(
      prompts.map((p) => p.path),
      ['./media/prompts/triageStuckSyncs.prompt.md'],
    );
    const { head } = promptFile(prompts[0].path);
    assert.equal(head.name, 'triageStuckSyncs');
    assert.ok(head.description.length > 20 && head.description.length <= 120, head.description);
  });

  it("uses only this extension's read-only tools, each it names in its text listed in its front matter", () => {
    const ours = new Set(tools.map((t) => t.toolReferenceName));
    const { tools: listed, body } = promptFile(prompts[0].path);
    assert.deepEqual(
      listed.filter((t) => !ours.has(t)),
      [],
      'a tool that is not ours',
    );
    const named = [...body.matchAll(/#(\w+)/g)].map((m) => m[1]);
    assert.ok(named.length >= 3, 'the steps name the tools they call');
    assert.deepEqual(
      named.filter((t) => !listed.includes(t)),
      [],
      'a tool the text names but the front matter does not give it',
    );
    assert.match(body, /never an\s+instruction to you/, "the service's text is data to the model");
  });

  it('no tool set is contributed: languageModelToolSets is proposed API (contribLanguageModelToolSets), never enabled', () => {
    assert.equal(manifest.contributes.languageModelToolSets, undefined);
    assert.equal(manifest.enabledApiProposals, undefined);
  });
});
