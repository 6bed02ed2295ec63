// The costliest answers the client's caps let through (src/api/client.ts: DEFAULT_MAX_BYTES, MAX_CONTAINERS,
// MAX_ITEMS; src/api/validate.ts: MAX_ITEM_DEPTH), as JSON text. Each stays just under every cap, so none is refused
// before JSON.parse: the bench measures what a hostile service can make the extension host do on every poll.
const MB = 1024 * 1024;
const BYTES = 16 * MB - 64; // under DEFAULT_MAX_BYTES
const ITEMS = 100_000; // MAX_ITEMS
const CONTAINERS = 500_000; // MAX_CONTAINERS
const COMMAS = 2_000_000; // MAX_COMMAS

/** A valid-looking connection (3 containers: the item, team, meta), `extra` spliced in before the closing brace. */
function connection(id, extra = '') {
  return `{"id":${id},"name":"c${id}","type":"pdf","team_id":1,"team":{"id":1,"name":"T"},"user_id":1,"created_at":"2026-11-22T12:00:00.000Z","updated_at":"2026-11-22T12:00:00.000Z","meta":{}${extra}}`;
}

/** Pads a list of item texts with a string field in each item, so the whole answer is just under BYTES. */
function padded(items) {
  const bare = 2 + items.reduce((n, s) => n + s.length + 1, 0);
  const per = Math.max(0, Math.floor((BYTES - bare) / items.length) - 8);
  const pad = `,"p":"${'x'.repeat(per)}"`;
  return `[${items.map((s) => s.slice(0, -1) + pad + '}').join(',')}]`;
}

export const SHAPES = {
  /** 100,000 small items with 5 objects each (500,000 in all), padded with a long string to 16 MB; all dropped. */
  'items and containers at the caps': {
    build: () => padded(Array.from({ length: ITEMS - 1 }, (_, i) => `{"id":${i + 1},"a":{},"b":{},"c":{},"d":{}}`)),
  },
  /** One item holding 2 million numbers (the commas cap), padded to 16 MB. */
  'values at the cap: 2 M numbers in one item': {
    build: () => padded([connection(1, `,"n":[${'0,'.repeat(COMMAS - 20)}0]`)]),
  },
  /** Items nested 31 levels deep (just under the depth bound) up to the containers cap, padded to 16 MB. */
  'deep items: 31 levels': {
    build: () => {
      const depth = 31 - 1;
      const count = Math.floor(CONTAINERS / (depth + 3));
      return padded(
        Array.from({ length: count }, (_, i) => connection(i + 1, `,"d":${'['.repeat(depth)}${']'.repeat(depth)}`)),
      );
    },
  },
  /** Empty objects up to the containers cap, then numbers up to the commas cap: refused by the item cap after parsing. */
  'empty objects and numbers (refused after parsing)': {
    build: () => `[${'{},'.repeat(CONTAINERS - 2)}${'0,'.repeat(COMMAS - CONTAINERS - 10)}0]`,
  },
  /** 16 MB of \u escapes in one string: the costliest text for JSON.parse to decode. */
  'escaped strings: 16 MB of \\u escapes': {
    build: () => `[${connection(1, `,"s":"${'\\u00e9'.repeat(Math.floor((BYTES - 400) / 6))}"`)}]`,
  },
};
