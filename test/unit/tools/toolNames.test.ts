import * as assert from 'node:assert/strict';
import { TOOL_NAMES } from '../../../src/tools/toolNames';

describe("language model tools' names", () => {
  it('the tool names are the stable ids', () => {
    assert.deepEqual(Object.values(TOOL_NAMES), [
      'flowsync_processing',
      'flowsync_connections',
      'flowsync_history',
      'flowsync_insights',
    ]);
  });
});
