/** A random token for a webview page's 'nonce-…' (webviewPage.ts): 32 hex digits, 128 bits from the platform's CSPRNG. */
export function makeNonce(
  fill: (bytes: Uint8Array) => Uint8Array = (bytes) => globalThis.crypto.getRandomValues(bytes),
): string {
  return Array.from(fill(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
