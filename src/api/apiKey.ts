import { t } from '../base/l10n';

/**
 * Why a key cannot be used (it must travel in an HTTP header: visible ASCII only), or undefined when it can: the rule
 * the client holds a stored key to and Set API Key... holds a typed one to (src/keys/vscode/apiKeyCommands.ts).
 */
export function apiKeyProblem(key: string): string | undefined {
  if (!key) return t('Enter the API key.');
  if (/\s/.test(key)) return t('An API key has no spaces.');
  if (!/^[\x21-\x7e]+$/.test(key)) {
    return t('An API key holds only letters, digits and punctuation (ASCII); check that it was pasted whole.');
  }
  return undefined;
}
