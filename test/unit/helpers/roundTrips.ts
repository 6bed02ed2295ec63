/**
 * A loopback proxy in front of a server that counts round trips: each flight of the client's bytes that follows an
 * answer of the server (what the client sent before the answer came is one flight, however many writes it took).
 * Used by the store tests and bench/teamHistory.mjs.
 */
import * as net from 'node:net';

export interface RoundTripCounter {
  readonly port: number;
  /** Round trips since the proxy started. */
  trips(): number;
  close(): Promise<void>;
}

export function countRoundTrips(port: number, host = '127.0.0.1'): Promise<RoundTripCounter> {
  let trips = 0;
  let answered = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
      socket.on('error', () => undefined);
    }
    client.on('data', (data) => {
      if (answered) trips++;
      answered = false;
      upstream.write(data);
    });
    upstream.on('data', (data) => {
      answered = true;
      client.write(data);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        trips: () => trips,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
}
