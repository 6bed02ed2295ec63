/**
 * Command line entry of the Flow Sync mock API: `npm run mock-api -- --help`.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { STUCK_SYNC_ID } from './data';
import { DEFAULT_STUCK_AGE_MS, DEMO_API_KEY, Fault, MockFlowSyncServer, MockServerOptions, parseFault } from './server';

const DEFAULT_PORT = 4010;

const USAGE = `Usage: node out/src/mock/cli.js [options]

Starts the Flow Sync mock API on loopback.

Options:
  --port N          port to listen on (default ${DEFAULT_PORT}; a free port is used if it is busy)
  --host H          address to listen on (default 127.0.0.1)
  --seed N          data seed (default 1)
  --connections N   number of connections (default 36)
  --teams N         number of teams (default 5)
  --flows N         number of flows (default 8)
  --processing N    about how many flow syncs are processing at once, the stuck one included (default 7)
  --speed N         the sync lifecycle runs N times faster: flows' run times (2 - 15 min) divided by N and
                    N times as many starts; the clock stays real (default 1)
  --stuck-minutes N the stuck flow sync #${STUCK_SYNC_ID} started N minutes before the mock (default ${DEFAULT_STUCK_AGE_MS / 60_000})
  --prefix /p       serve the API under this path, e.g. /flowsync
  --key K           API key to accept (default ${DEMO_API_KEY})
  --etag            send ETag and Last-Modified with the lists, and 304 (no body) to a request that holds the
                    answer already (If-None-Match, If-Modified-Since); off by default
  --tls-cert FILE   serve HTTPS with this PEM certificate chain (with --tls-key), e.g. test/fixtures/tls/server.pem,
  --tls-key FILE    issued by a private certificate authority (test/fixtures/tls/ca.pem); off by default
  --fault JSON      inject a fault, e.g. '{"endpoint":"processing","status":503,"times":1}' (repeatable)
  --help            show this help

Control endpoints (no key), e.g. with curl -X POST -d '{"id":123}' <url>/__mock/syncs/finish:
  GET /__mock/syncs          the clock, the flows' typical run times, the stuck sync, the list now
  POST /__mock/syncs/start   {"flowId":101,"count":3,"runMs":60000} starts syncs now (count, runMs optional)
  POST /__mock/syncs/finish  {"id":123} ends a processing sync now
  POST /__mock/syncs/errors  {"id":123,"message":"E_X: y"} the sync reports errors from now on (message optional)
  DELETE /__mock/syncs       forgets started and finished syncs
  GET|POST /__mock/now       {"now":ms} freezes the clock, {"offsetMs":n} moves it (advance)
  POST|DELETE /__mock/faults, GET|DELETE /__mock/requests
`;

/** A problem with the command line: reported with the usage hint and exit code 2. */
class UsageError extends Error {}

interface CliSettings {
  options: MockServerOptions;
  faults: Fault[];
  /** An explicitly requested port must be honoured; only the default may fall back to a free one. */
  portExplicit: boolean;
}

function parseCount(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new UsageError(`--${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return Number(raw);
}

function parseSpeed(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const speed = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  if (!(speed > 0 && speed <= 1000)) throw new UsageError(`--speed must be a number > 0 and <= 1000, got "${raw}"`);
  return speed;
}

function parseFaultArgument(raw: string): Fault {
  try {
    return parseFault(JSON.parse(raw));
  } catch (error) {
    throw new UsageError(`--fault ${JSON.stringify(raw)}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function parseCli(argv: readonly string[]): CliSettings | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        seed: { type: 'string' },
        connections: { type: 'string' },
        teams: { type: 'string' },
        flows: { type: 'string' },
        processing: { type: 'string' },
        prefix: { type: 'string' },
        key: { type: 'string' },
        fault: { type: 'string', multiple: true },
        help: { type: 'boolean' },
        etag: { type: 'boolean' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        speed: { type: 'string' },
        'stuck-minutes': { type: 'string' },
      },
    }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.help) return 'help';
  if (parsed.key !== undefined && parsed.key.trim() === '') throw new UsageError('--key must not be empty');
  const port = parseCount('port', parsed.port, 0);
  const stuckMinutes = parseCount('stuck-minutes', parsed['stuck-minutes'], 0);
  if (port !== undefined && port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  return {
    options: {
      port: port ?? DEFAULT_PORT,
      host: parsed.host,
      seed: parseCount('seed', parsed.seed, 0),
      connections: parseCount('connections', parsed.connections, 0),
      teams: parseCount('teams', parsed.teams, 1),
      flows: parseCount('flows', parsed.flows, 1),
      processing: parseCount('processing', parsed.processing, 0),
      speed: parseSpeed(parsed.speed),
      stuckSince:
        stuckMinutes === undefined ? undefined : Math.floor((Date.now() - stuckMinutes * 60_000) / 1000) * 1000,
      pathPrefix: parsed.prefix,
      apiKey: parsed.key,
      etag: parsed.etag === true || undefined,
      tls: readTls(parsed['tls-cert'], parsed['tls-key']),
      log: (line) => console.log(`${new Date().toISOString()} ${line}`),
    },
    faults: (parsed.fault ?? []).map(parseFaultArgument),
    portExplicit: port !== undefined,
  };
}

/** The PEM files of --tls-cert and --tls-key, both or neither. */
function readTls(certFile: string | undefined, keyFile: string | undefined): MockServerOptions['tls'] {
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) throw new UsageError('--tls-cert and --tls-key go together');
  const read = (flag: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`--${flag} ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return { cert: read('tls-cert', certFile), key: read('tls-key', keyFile) };
}

async function startWithFallback(settings: CliSettings): Promise<MockFlowSyncServer> {
  try {
    return await MockFlowSyncServer.start(settings.options);
  } catch (error) {
    if (settings.portExplicit || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    console.log(`Port ${settings.options.port} is busy, using a free port instead.`);
    return MockFlowSyncServer.start({ ...settings.options, port: 0 });
  }
}

function printBanner(server: MockFlowSyncServer): void {
  const keyLabel = server.apiKey === DEMO_API_KEY ? 'API key (demo)' : 'API key';
  console.log(`Flow Sync mock API listening on ${server.url}`);
  console.log(`${keyLabel}: ${server.apiKey}`);
  const { speed, stuckSince } = server.dataset;
  const runTimes = server.dataset.flows.map((flow) => flow.typicalRunMs);
  const lifecycle = `syncs run ${formatSeconds(Math.min(...runTimes))} - ${formatSeconds(Math.max(...runTimes))} (typical per flow)`;
  console.log(`Lifecycle: ${lifecycle}${speed === 1 ? '' : `, ${speed}x faster than real flows`}; the clock is real`);
  if (stuckSince !== undefined) {
    console.log(`Stuck flow sync: #${STUCK_SYNC_ID}, started ${new Date(stuckSince).toISOString()}, never finishes`);
  }
  console.log(`Try: curl -H 'Authorization: Bearer ${server.apiKey}' ${server.url}/api/public/v1/connections/index`);
  console.log(`Control: curl ${server.url}/__mock/syncs (see --help)`);
}

function formatSeconds(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

export async function main(argv: readonly string[]): Promise<number> {
  let settings;
  try {
    settings = parseCli(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`flowsync mock: ${error.message}\nRun with --help for usage.`);
    return 2;
  }
  if (settings === 'help') {
    console.log(USAGE);
    return 0;
  }
  const server = await startWithFallback(settings);
  settings.faults.forEach((fault) => server.inject(fault));
  printBanner(server);
  const stop = () => {
    console.log('Stopping the mock API.');
    void server.close();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`flowsync mock: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
