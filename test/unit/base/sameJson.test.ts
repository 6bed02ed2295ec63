import * as assert from 'node:assert/strict';
import { sameJson } from '../../../src/base/sameJson';

describe('sameJson', () => {
  it('compares parsed JSON deeply, without stringifying', () => {
    const a = JSON.parse('{"a":[1,{"b":null,"c":"x"}],"d":true}');
    assert.equal(sameJson(a, JSON.parse('{"d":true,"a":[1,{"c":"x","b":null}]}')), true, 'key order does not matter');
    for (const other of [
      '{"a":[1,{"b":null,"c":"y"}],"d":true}',
      '{"a":[1,{"b":null}],"d":true}',
      '{"a":[1,{"b":null,"c":"x"}],"d":true,"e":1}',
      '{"a":{"0":1},"d":true}',
    ]) {
      assert.equal(sameJson(a, JSON.parse(other)), false, other);
    }
    assert.equal(sameJson([], {}), false);
    assert.equal(sameJson(null, {}), false);
    assert.equal(sameJson(1, 1), true);
  });
});
