import * as assert from 'node:assert/strict';
import { OnePanel, PageHandshake } from '../../../src/base/webviewPanel';

type Message = { type: 'ready' } | { type: 'range'; range: string };

/** A panel's messages: it parses 'ready' and 'range', and notes what it is told. */
function page() {
  const told: string[] = [];
  const handshake = new PageHandshake<Message>({
    parse: (data) => {
      const m = data as Partial<{ type: unknown; range: unknown }> | null;
      if (m?.type === 'ready') return { type: 'ready' };
      if (m?.type === 'range' && typeof m.range === 'string') return { type: 'range', range: m.range };
      return undefined;
    },
    ready: () => told.push('ready'),
    receive: (message) => told.push(message.type === 'range' ? `range ${message.range}` : 'ready as a message'),
  });
  return { handshake, told };
}

describe("a webview panel's ready handshake: nothing is posted before the page said 'ready'", () => {
  it("not ready until the page says so; 'ready' has everything sent, once per load", () => {
    const { handshake, told } = page();
    assert.equal(handshake.ready, false, 'a message posted now would be lost');
    handshake.receive({ type: 'ready' });
    assert.equal(handshake.ready, true);
    assert.deepEqual(told, ['ready']);
  });

  it("the page's other messages go to the panel; what is not one of its messages is dropped", () => {
    const { handshake, told } = page();
    handshake.receive({ type: 'range', range: 'day' });
    for (const junk of [null, 7, 'ready', { type: 'range', range: 1 }, { type: 'other' }]) handshake.receive(junk);
    assert.deepEqual(told, ['range day']);
    assert.equal(handshake.ready, false, 'only ready makes it ready');
  });

  it("a hidden page is dropped: it takes nothing until it says 'ready' again", () => {
    const { handshake, told } = page();
    handshake.receive({ type: 'ready' });
    handshake.dropped();
    assert.equal(handshake.ready, false);
    handshake.receive({ type: 'ready' });
    assert.equal(handshake.ready, true);
    assert.deepEqual(told, ['ready', 'ready'], 'everything sent again to the new load');
  });
});

describe('one open panel of a kind: shown again, never a second one', () => {
  it('the first show makes it; later ones reveal that one; once closed, the next show makes a new one', () => {
    const kind = new OnePanel<{ n: number }>();
    let made = 0;
    const revealed: number[] = [];
    const show = () =>
      kind.show(
        () => ({ n: ++made }),
        (open) => revealed.push(open.n),
      );
    assert.equal(kind.current, undefined);
    const first = show();
    assert.equal(kind.current, first);
    assert.equal(show(), first);
    assert.deepEqual(revealed, [1]);
    kind.closed({ n: 99 });
    assert.equal(kind.current, first, 'another panel closing changes nothing');
    kind.closed(first);
    assert.equal(kind.current, undefined);
    const second = show();
    assert.notEqual(second, first);
    assert.equal(made, 2);
    kind.closed(first);
    assert.equal(kind.current, second, 'the old one closing again does not close the new one');
  });
});
