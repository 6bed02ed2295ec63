// Runs the mock API (out/src/mock/server.js) in a worker thread, so its allocations (the cached 10,000-item body, the
// request log) stay out of the heap the memory bench measures. Posts { url } once listening; 'close' stops it.
import { parentPort, workerData } from 'node:worker_threads';
import { outModule } from './common.mjs';

const { MockFlowSyncServer } = outModule('mock/server.js');
const mock = await MockFlowSyncServer.start(workerData);
// Keep the request log from growing for 1,000 cycles (it is the mock's memory, not ours, but still: tidy).
const trim = setInterval(() => mock.clearRequests(), 1000);
parentPort.on('message', async (message) => {
  if (message === 'close') {
    clearInterval(trim);
    await mock.close();
    parentPort.close();
  }
});
parentPort.postMessage({ url: mock.url });
