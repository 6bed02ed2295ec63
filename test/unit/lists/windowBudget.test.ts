import * as assert from 'node:assert/strict';
import { MAX_ITEMS } from '../../../src/api/validate';
import { MAX_WINDOW_ITEMS, WindowBudget } from '../../../src/lists/windowBudget';

describe('WindowBudget', () => {
  it('holds at most its limit across holders: 20 services of 100,000 items each, only two are held', () => {
    const budget = new WindowBudget();
    assert.equal(budget.limit, MAX_WINDOW_ITEMS);
    assert.equal(MAX_WINDOW_ITEMS, 2 * MAX_ITEMS, 'one service with both lists at the per-answer cap still fits');
    const held = Array.from({ length: 20 }, () => budget.holder()).filter((h) => {
      if (!h.fits(MAX_ITEMS)) return false;
      h.hold(MAX_ITEMS);
      return true;
    });
    assert.equal(held.length, 2);
    assert.equal(budget.held, MAX_WINDOW_ITEMS);
  });

  it("a holder's own count is given back first: an answer no larger than what it holds always fits", () => {
    const budget = new WindowBudget(100);
    const a = budget.holder();
    const b = budget.holder();
    a.hold(60);
    b.hold(40);
    assert.ok(a.fits(60) && a.fits(10) && b.fits(40) && b.fits(0));
    assert.ok(!a.fits(61), 'one more than the room left');
    assert.ok(!b.fits(41));
  });

  it('a holder that shrinks, or holds nothing (reset, disposed), frees its room at once', () => {
    const budget = new WindowBudget(100);
    const a = budget.holder();
    const b = budget.holder();
    a.hold(90);
    assert.ok(!b.fits(20));
    a.hold(80);
    assert.ok(b.fits(20), 'a shrank by 10');
    b.hold(20);
    assert.equal(budget.held, 100);
    a.hold(0);
    assert.equal(budget.held, 20);
    assert.ok(b.fits(100), "all the room is b's now");
  });

  it('holders are counted, not searched: a million steps over 10,000 holders keep the total exact', () => {
    const budget = new WindowBudget(1_000_000);
    const holders = Array.from({ length: 10_000 }, () => budget.holder());
    let expected = 0;
    const counts = new Array<number>(holders.length).fill(0);
    for (let step = 0; step < 1_000_000; step++) {
      const i = (step * 7919) % holders.length;
      const n = (step * 31) % 150;
      if (!holders[i].fits(n)) continue;
      expected += n - counts[i];
      counts[i] = n;
      holders[i].hold(n);
    }
    assert.equal(budget.held, expected);
    assert.ok(budget.held <= budget.limit);
  });

  it('each service has at least its fair share (limit / n): a 5-item answer fits while another service holds the maximum', () => {
    const budget = new WindowBudget();
    const staging = budget.service();
    const production = budget.service();
    assert.equal(budget.share, MAX_WINDOW_ITEMS / 2);
    const [processing, connections] = [staging.holder(), staging.holder()];
    for (const h of [processing, connections]) {
      assert.ok(h.fits(MAX_ITEMS), 'first come: the rest of the budget');
      h.hold(MAX_ITEMS);
    }
    assert.equal(budget.held, MAX_WINDOW_ITEMS);
    const mine = production.holder();
    assert.ok(mine.fits(5), "Production's 5 items fit: within its share");
    mine.hold(5);
    assert.ok(mine.fits(MAX_WINDOW_ITEMS / 2), 'up to its whole share');
    assert.ok(!mine.fits(MAX_WINDOW_ITEMS / 2 + 1), 'not more while the window is full');
    assert.ok(processing.fits(MAX_ITEMS), 'what a list holds always fits again');
    assert.ok(!processing.fits(MAX_ITEMS + 1), 'Staging, above its share, cannot grow while the window is full');
    connections.hold(0);
    assert.ok(processing.fits(MAX_ITEMS + 1), 'first come again once there is room');
  });

  it('a service disposed no longer shares: the shares grow back; a share never lets the total reach 2 x limit', () => {
    const budget = new WindowBudget(100);
    const services = Array.from({ length: 4 }, () => budget.service());
    assert.equal(budget.share, 25);
    services[3].dispose();
    services[3].dispose();
    assert.equal(budget.share, 33, 'disposed once, counted once');
    const holders = services.slice(0, 3).flatMap((s) => [s.holder(), s.holder()]);
    let most = 0;
    for (let step = 0; step < 100_000; step++) {
      const h = holders[(step * 7919) % holders.length];
      const n = (step * 31) % 120;
      if (h.fits(n)) h.hold(n);
      most = Math.max(most, budget.held);
    }
    assert.ok(most < 2 * budget.limit, `at most ${most}`);
  });
});
