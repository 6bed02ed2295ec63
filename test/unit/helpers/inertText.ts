import * as assert from 'node:assert/strict';

/** VS Code's own pattern for links in notification text (vs/base/common/linkedText.ts). */
const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
/** VS Code's theme icon syntax as rendered in labels, descriptions, status bar and quick picks. */
const VSCODE_ICON = /\$\(([a-z.]+\/)?([a-z0-9-]+)(~[a-z]+)?\)/gi;

/** Asserts that `text` holds no link, theme icon, markup, control or bidi character VS Code would act on. */
export function assertInert(text: string): void {
  assert.doesNotMatch(text, VSCODE_LINK, `link in: ${text}`);
  assert.doesNotMatch(text, VSCODE_ICON, `icon in: ${text}`);
  assert.doesNotMatch(text, /[<>]/, `markup in: ${text}`);

  assert.doesNotMatch(
    text,
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/,
    `control or bidi character in: ${JSON.stringify(text)}`,
  );
}
