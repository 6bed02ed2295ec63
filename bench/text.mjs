#!/usr/bin/env node
// Service text made inert (out/src/base/inert.js) with the keys of 1, 2 and 20 services registered (hideEverywhere,
// as activate() registers every service's key): 20,000 inert() calls over a mix of service texts (connection, team and
// flow names, failure messages, one over the 300-character cut), none holding a key. The keys are masked by one matcher
// made once per set of keys, so the cost per call must not grow with the number of services: the 20-key / 1-key ratio
// is taken per pair (1 key, then 20 keys, the order flipped every pair), after warm-up.
import { performance } from 'node:perf_hooks';
import { emitRows, median, ms, outModule, progress, row } from './lib/common.mjs';

const { inert, hideEverywhere } = outModule('base/inert.js');

const CALLS = 20_000;
const PAIRS = 15;
const WARMUP = 2;
const say = (m) => progress('text', m);
/** Keys shaped like the service's (fsk_ + 28 characters), all different. */
const KEYS = Array.from(
  { length: 20 },
  (_, i) =>
    `fsk_${i % 2 ? 'Test' : 'Live'}_${(i * 7919 + 104729).toString(36)}Hq2Zp9Xw4Lm8Rt3Vb6Nc${String.fromCharCode(65 + i)}`,
);
const TEXTS = [
  'Invoices → Datev (nightly)',
  'Finance & Controlling',
  'Flow 7 · Payroll',
  'E_TIMEOUT: the target system did not answer within 30 s (retry 3 of 5)',
  'processing',
  'Salesforce Accounts ⇄ HubSpot Companies — team Sales Operations EMEA',
  `Database unavailable: ${'connection refused by 10.0.4.17:5432; '.repeat(9)}`,
  'CRM sync',
];

function calls(keys) {
  hideEverywhere(() => keys.slice()); // a new array each call, as activate() hands them
  let length = 0;
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) length += inert(TEXTS[i % TEXTS.length]).length;
  const t = ms(t0);
  if (length === 0) throw new Error('nothing shown');
  return t;
}

const one = [];
const two = [];
const twenty = [];
const ratios = [];
for (let i = 0; i < PAIRS + WARMUP; i++) {
  globalThis.gc?.();
  const [a, b, c] =
    i % 2
      ? [calls(KEYS.slice(0, 20)), calls(KEYS.slice(0, 1)), calls(KEYS.slice(0, 2))]
      : [calls(KEYS.slice(0, 1)), calls(KEYS.slice(0, 20)), calls(KEYS.slice(0, 2))];
  if (i < WARMUP) continue;
  const [k1, k20] = i % 2 ? [b, a] : [a, b];
  one.push(k1);
  twenty.push(k20);
  two.push(c);
  ratios.push(k20 / k1);
}
hideEverywhere(() => undefined);
say(
  `20,000 inert() calls: 1 key ${median(one).toFixed(1)} ms, 2 keys ${median(two).toFixed(1)} ms, 20 keys ${median(twenty).toFixed(1)} ms, ratio 20 / 1 ${median(ratios).toFixed(2)}x`,
);
const note = `${PAIRS} runs after ${WARMUP} warm-up; ${TEXTS.length} service texts in turn (names, messages, one over the cut), none holding a key`;
emitRows([
  row('text', '20,000 inert() calls, 1 key', 'ms', one, { note }),
  row('text', '20,000 inert() calls, 2 keys', 'ms', two),
  row('text', '20,000 inert() calls, 20 keys', 'ms', twenty),
  row('text', '20,000 inert() calls, 20 keys / 1 key (per pair)', 'x', ratios, { target: { max: 3, text: '≤ 3x' } }),
]);
