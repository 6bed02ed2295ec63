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
});
