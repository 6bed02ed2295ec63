// A loopback server (its own process, so its memory is not counted) that answers every GET with one "worst answer"
// shape built just under the client's caps. Prints its URL on stdout once listening. Used by bench/worst.mjs.
//   node bench/lib/worstServer.mjs <shape>
import http from 'node:http';
import { SHAPES } from './worstShapes.mjs';

const body = Buffer.from(SHAPES[process.argv[2]].build());
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port} ${body.length}`));
process.on('disconnect', () => process.exit(0));
