import * as assert from 'node:assert/strict';
import { userAgent } from '../../../src/api/userAgent';

describe('userAgent', () => {
  it("names the extension's version, then the editor's", () => {
    assert.equal(userAgent('1.4.0', '1.139.1'), 'flowsync-explorer/1.4.0 (VS Code 1.139.1)');
  });
});
