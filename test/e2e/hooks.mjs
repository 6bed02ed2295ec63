// Root hooks of the e2e suite (loaded by test/e2e/.mocharc.json): one workbench session for all tests, a screenshot
// after every test (test-results/screenshots/<test title>.png — for a failed test, the moment it failed).
import fs from 'node:fs';
import path from 'node:path';
import { SCREENSHOT_DIR, keptLogs, screenshot, session, startSession, stopSession } from './workbench.mjs';

export const mochaHooks = {
  async beforeAll() {
    this.timeout(20 * 60 * 1000); // a cold rig install takes ~2-3 minutes
    // Under test/e2e/run.mjs (E2E_PREPARED=1) the folder was emptied once, before the lanes started.
    if (!process.env.E2E_PREPARED) fs.rmSync(SCREENSHOT_DIR, { recursive: true, force: true });
    try {
      // A fixed stuck threshold: the mock's stuck sync (2 h old) shows as stuck from the start (a learned one needs 5 runs).
      // E2E_SESSION_WINDOW=0 (run.mjs's own-windows lane): its suites open windows of their own; no session window.
      await startSession({
        settings: { 'flowsync.stuckAfterMinutes': 60 },
        window: process.env.E2E_SESSION_WINDOW !== '0',
      });
    } catch (error) {
      if (session.page) await screenshot('before-all-failed').catch(() => {});
      await stopSession().catch(() => {});
      throw error;
    }
  },

  async afterEach() {
    const test = this.currentTest;
    if (!test || !session.page) return;
    const file = await screenshot(test.fullTitle()).catch((e) =>
      console.error(`    [e2e] screenshot failed: ${e.message}`),
    );
    if (test.state === 'failed' && file) {
      console.log(`    [e2e] screenshot of the failure: ${path.relative(process.cwd(), file)}`);
      const logs = keptLogs();
      if (logs) console.log(logs);
    }
  },

  async afterAll() {
    this.timeout(30000);
    await stopSession();
  },
};
