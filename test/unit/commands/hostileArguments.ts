/**
 * Arguments a command can be handed from outside (a command link, a key binding's or a task's JSON, another extension)
 * that are no argument of any command: shared by the pure check's test (commandArgs.test.ts) and the dispatcher's
 * (vscode/handlers.test.ts). Each names what it is; none may reach a handler, and no log line may repeat its text.
 */

/** Text that must never be echoed into a log line (each hostile value below holds some). */
export const ECHO_MARKS = ['admin', 'passwd', '..', 'x=', 'evil', 'SECRET'];

const throwing = () => {
  throw new Error('SECRET getter');
};

/** A value that throws whatever is asked of it (a Proxy from another extension). */
const trap = new Proxy(
  {},
  {
    get: throwing,
    has: throwing,
    ownKeys: throwing,
    getOwnPropertyDescriptor: throwing,
    getPrototypeOf: throwing,
  },
);

export const HOSTILE: ReadonlyArray<readonly [what: string, value: unknown]> = [
  ['null', null],
  ['zero', 0],
  ['a negative number', -1],
  ['NaN', NaN],
  ['a huge number', 1e308],
  ['true', true],
  ['a string id with path characters', '5/../../admin?x='],
  ['a path', '../../etc/passwd'],
  ['a long string', 'evil'.repeat(250_000)],
  ['a function', () => 'evil'],
  ['a symbol', Symbol('evil')],
  ['an empty array', []],
  ['an array of rows-like objects', [{ kind: 'leaf', list: 'processing' }]],
  ['a huge array', new Array(1_000_001).fill({ kind: 'historyService', service: 'evil' })],
  ['an empty object', {}],
  ['a leaf without a list', { kind: 'leaf' }],
  ['a leaf without its item', { kind: 'leaf', list: 'processing' }],
  ['a leaf whose item is null', { kind: 'leaf', list: 'processing', item: null }],
  [
    'a leaf whose id is a string with path characters',
    { kind: 'leaf', list: 'processing', item: { value: { id: '5/../../admin?x=', flow_id: 1 } } },
  ],
  ['a leaf of no list', { kind: 'leaf', list: 'constructor', item: { value: { id: 5 } } }],
  ['a group whose key is an object', { kind: 'group', list: 'processing', group: { key: {}, label: 'x', items: [] } }],
  [
    'a group whose items hold null',
    { kind: 'group', list: 'connections', group: { key: 1, label: 'x', items: [null] } },
  ],
  [
    'a group of too many items',
    {
      kind: 'group',
      list: 'processing',
      group: { key: 1, label: 'x', items: new Array(100_001).fill({ value: { id: 1 } }) },
    },
  ],
  ['a History run that is null', { kind: 'historyEntry', entry: null, service: 'evil' }],
  [
    'a History run whose id is a string with path characters',
    { kind: 'historyEntry', entry: { id: '5/../../admin?x=', flowId: 7 }, service: 'evil' },
  ],
  ['a History run without a service', { kind: 'historyEntry', entry: { id: 5, flowId: 7 } }],
  ['a History run whose service is a number', { kind: 'historyEntry', entry: { id: 5, flowId: 7 }, service: 5 }],
  [
    'a History run whose leftAt is text',
    { kind: 'historyEntry', entry: { id: 5, flowId: 7, leftAt: 'x=' }, service: 's' },
  ],
  ['a History day that is null', { kind: 'historyDay', group: null, service: 'evil' }],
  [
    'a History day of a broken run',
    { kind: 'historyDay', group: { key: 1, label: 'Today', entries: [{ id: 1 }] }, service: 'evil' },
  ],
  ['a kind that is no kind', { kind: 'evil', service: 'evil' }],
  ['a kind named constructor', { kind: 'constructor' }],
  ['a kind named __proto__', { kind: '__proto__' }],
  ['a row through a parsed __proto__ key', JSON.parse('{"__proto__":{"kind":"leaf","list":"processing"}}')],
  [
    'a History run inherited from its prototype',
    Object.create({ kind: 'historyEntry', entry: { id: 5, flowId: 7 }, service: 'evil' }),
  ],
  [
    'a History run whose entry inherits its ids',
    { kind: 'historyEntry', entry: Object.create({ id: 5, flowId: 7 }), service: 'evil' },
  ],
  ['an export argument inherited from its prototype', Object.create({ uri: 'file:///evil.csv', format: 'csv' })],
  [
    'an export argument in a parsed __proto__ key',
    JSON.parse('{"__proto__":{"uri":"file:///evil.csv","format":"csv"}}'),
  ],
  ['an object whose fields throw', Object.defineProperty({}, 'kind', { get: throwing, enumerable: true })],
  ['a proxy that throws on everything', trap],
];
