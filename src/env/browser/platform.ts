import type { HttpAnswer, Platform } from '../types';

/**
 * The web worker extension host (vscode.dev, codespaces in the browser): the global fetch. `redirect: 'manual'` gives
 * an opaque answer for a redirect in a browser; it is reported as a 3xx so the key is never forwarded.
 */
export const browserPlatform: Platform = {
  async httpGet(url, { headers, signal }): Promise<HttpAnswer> {
    const response = await fetch(url, { method: 'GET', redirect: 'manual', signal, headers, credentials: 'omit' });
    const redirected = response.type === 'opaqueredirect';
    const reader = redirected ? undefined : response.body?.getReader();
    return {
      status: redirected ? 302 : response.status,
      statusText: response.statusText,
      header: (name) => response.headers.get(name),
      body: reader ? chunksOf(reader) : null,
      cancel: () => void reader?.cancel().catch(() => undefined),
    };
  },
  createHasher: () => new Fnv1a64(),
  decodeUtf8(chunks, totalBytes) {
    if (chunks.length === 1) return new TextDecoder('utf-8').decode(chunks[0]);
    const all = new Uint8Array(totalBytes);
    let at = 0;
    for (const chunk of chunks) {
      all.set(chunk, at);
      at += chunk.length;
    }
    return new TextDecoder('utf-8').decode(all);
  },
};

async function* chunksOf(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncIterable<Uint8Array> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

/** FNV-1a over 64 bits in two 32-bit halves: fast, incremental, plenty to tell two answers apart. */
class Fnv1a64 {
  private high = 0xcbf29ce4;
  private low = 0x84222325;
  update(chunk: Uint8Array): void {
    let high = this.high;
    let low = this.low;
    for (let i = 0; i < chunk.length; i++) {
      low = (low ^ chunk[i]) >>> 0; // `^` gives a signed 32-bit value: kept unsigned, or the carry below goes wrong
      // multiply by the 64-bit FNV prime 0x100000001b3 = 2^40 + 0x1b3
      const lowTimes = low * 0x1b3;
      const carry = Math.floor(lowTimes / 0x100000000);
      high = (high * 0x1b3 + (low << 8) + carry) >>> 0;
      low = lowTimes >>> 0;
    }
    this.high = high;
    this.low = low;
  }
  digest(): string {
    return this.high.toString(16).padStart(8, '0') + this.low.toString(16).padStart(8, '0');
  }
}
