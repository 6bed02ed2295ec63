import * as assert from 'node:assert/strict';
import {
  BAR_FILL,
  COUNT_STEPS,
  barParts,
  bucketAt,
  bucketLength,
  clampLabel,
  countTicks,
  countTop,
  linearScale,
  plotArea,
  stackCounts,
} from '../../../src/activity/webview/barChart';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T = Date.UTC(2026, 10, 22, 12);

describe('activity chart layout (barChart)', () => {
  it('stacks the flows, first at the bottom, a missing count as 0', () => {
    const stacks = stackCounts([{ counts: [1, 0, 2] }, { counts: [3, 1] }, { counts: [0.5, 0.5, 0.5] }], 3);
    assert.deepEqual(stacks, [
      [1, 0, 2],
      [4, 1, 2],
      [4.5, 1.5, 2.5],
    ]);
    assert.deepEqual(stackCounts([], 3), []);
  });

  it('finds the bucket length from the smallest step, or the fallback for one bucket', () => {
    assert.equal(bucketLength([T, T + MIN, T + 3 * MIN], HOUR), MIN);
    assert.equal(bucketLength([T], HOUR), HOUR);
    assert.equal(bucketLength([], HOUR), HOUR);
    assert.equal(bucketLength([T, T], HOUR), HOUR, 'a zero step is no step');
  });

  it('puts the count scale 8 % above the highest stack, and at 1 when nothing ran', () => {
    assert.ok(
      Math.abs(
        countTop([
          [1, 2],
          [3, 10],
        ]) - 10.8,
      ) < 1e-9,
    );
    assert.equal(countTop([[0, 0]]), 1);
    assert.equal(countTop([]), 1);
  });

  it('chooses count ticks from 0 at least the given space apart, tenths the finest step', () => {
    // 10.8 over 300 px: 27.8 px per unit, so a step of 2 is the first 30 px apart
    assert.deepEqual(countTicks(10.8, 300, 30), [0, 2, 4, 6, 8, 10]);
    // a small top: tenths (0.1 is 28 px of 300 for 1.08; 0.2 is 55 px)
    assert.deepEqual(countTicks(1.08, 300, 30), [0, 0.2, 0.4, 0.6, 0.8, 1]);
    assert.deepEqual(countTicks(0.3, 300, 30), [0, 0.1, 0.2, 0.3], 'no float noise: 0.30000000000000004 is 0.3');
    // a huge top takes the largest step, never a thousand ticks
    const huge = countTicks(1e12, 300, 30);
    assert.ok(huge.length <= 1000);
    assert.equal(huge[1], COUNT_STEPS.at(-1));
    assert.deepEqual(countTicks(0, 300, 30), [0]);
    assert.deepEqual(countTicks(10, 0, 30), [0]);
  });

  it('maps a domain onto pixels, flipped for the count axis', () => {
    const y = linearScale(0, 10, 200, 0);
    assert.equal(y(0), 200);
    assert.equal(y(10), 0);
    assert.equal(y(5), 100);
    assert.equal(linearScale(3, 3, 0, 100)(3), 0, 'an empty domain does not divide by 0');
  });

  it('leaves room for the axes around the plot', () => {
    const plot = plotArea(600, 300, { countLabelWidth: 20, lineHeight: 16, hasTitle: true, tickLength: 6 });
    assert.deepEqual(plot, { left: 52, top: 10, width: 540, height: 262 });
    assert.ok(plot.left + plot.width <= 600 && plot.top + plot.height <= 300);
    const tiny = plotArea(10, 10, { countLabelWidth: 40, lineHeight: 16, hasTitle: true, tickLength: 6 });
    assert.ok(tiny.width >= 1 && tiny.height >= 1);
  });

  it('places each stacked part from the flows below it to its own sum, 90 % of its bucket wide', () => {
    const times = [T, T + MIN];
    const stacks = stackCounts([{ counts: [2, 0] }, { counts: [1, 4] }], 2);
    const x = linearScale(T, T + 2 * MIN, 0, 200);
    const y = linearScale(0, 5, 100, 0);
    assert.deepEqual(barParts(stacks, times, MIN, x, y), [
      { flow: 0, bucket: 0, left: 0, top: 60, width: 90, height: 40 },
      { flow: 1, bucket: 0, left: 0, top: 40, width: 90, height: 20 },
      // flow 0 has nothing in bucket 1: no part
      { flow: 1, bucket: 1, left: 100, top: 20, width: 90, height: 80 },
    ]);
    assert.equal(BAR_FILL, 0.9);
    // a bar is at least a pixel wide however many buckets
    const many = barParts([[1]], [T], MIN, linearScale(T, T + 10_000 * MIN, 0, 100), y);
    assert.equal(many[0].width, 1);
  });

  it('the parts of a bar meet without overlapping and reach the top of its stack', () => {
    const counts = [
      [0.3, 1.7, 2],
      [2.2, 0.4, 0],
      [1.1, 0, 5],
    ];
    const stacks = stackCounts(
      counts.map((c) => ({ counts: c })),
      3,
    );
    const y = linearScale(0, countTop(stacks), 250, 10);
    const parts = barParts(stacks, [T, T + MIN, T + 2 * MIN], MIN, linearScale(T, T + 3 * MIN, 40, 640), y);
    for (let bucket = 0; bucket < 3; bucket++) {
      const own = parts.filter((p) => p.bucket === bucket);
      for (let k = 1; k < own.length; k++) assert.equal(own[k].top + own[k].height, own[k - 1].top);
      assert.equal(own[0].top + own[0].height, 250);
      assert.equal(own.at(-1)!.top, Math.round(y(stacks.at(-1)![bucket])));
    }
  });

  it('finds the bucket under the pointer, none off the plot or past the data', () => {
    const plot = { left: 50, top: 0, width: 600, height: 200 };
    const times = [T, T + MIN, T + 2 * MIN, T + 5 * MIN]; // a gap of two buckets before the last
    const min = T;
    const max = T + 6 * MIN; // 100 px a bucket
    const at = (px: number) => bucketAt(px, plot, min, max, times, MIN);
    assert.equal(at(50), 0);
    assert.equal(at(149), 0);
    assert.equal(at(150), 1);
    assert.equal(at(260), 2);
    assert.equal(at(400), undefined, 'between the data: no bucket');
    assert.equal(at(560), 3);
    assert.equal(at(650), undefined, 'the end of the last bucket');
    assert.equal(at(49), undefined);
    assert.equal(at(651), undefined);
    assert.equal(at(Number.NaN), undefined);
    assert.equal(bucketAt(100, plot, min, max, [], MIN), undefined);
  });

  it('keeps a label inside the canvas', () => {
    assert.equal(clampLabel(100, 40, 600), 80);
    assert.equal(clampLabel(5, 40, 600), 0);
    assert.equal(clampLabel(595, 40, 600), 560);
  });
});
