import { inert } from '../base/inert';

/*
 * The team store's connection string (postgres://user:password@host:5432/database?sslmode=...), read once into the
 * fields the driver is given one by one: nothing else of the string reaches the driver (no other parameter, no
 * environment variable decides where History goes). `label` names the store without its password, for the status
 * and the log. The string itself is kept in SecretStorage only (the vscode side).
 */

/**
 * How the connection is protected: 'verify-full' (TLS, the certificate and host verified: the default off this
 * machine), 'verify-ca' (TLS, the certificate verified, not the host), 'require' (TLS, nothing verified), 'disable'
 * (plain TCP: the default to this machine). libpq's 'prefer' and 'allow' may fall back to plain TCP: they are read
 * as 'require'.
 */
type SslMode = 'disable' | 'require' | 'verify-ca' | 'verify-full';

export interface StoreTarget {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  readonly password: string;
  readonly sslmode: SslMode;
  /** Whether the host is this machine (loopback). */
  readonly local: boolean;
  /** user@host:port/database: the store named without its password. */
  readonly label: string;
}

export type TargetProblem =
  'tooLong' | 'notPostgres' | 'noHost' | 'severalHosts' | 'badPort' | 'noDatabase' | 'noUser' | 'badSslMode';

/** Longest connection string taken (a real one is under 300 characters). */
const MAX_CONNECTION_STRING = 2_000;
const SSL_MODES: Record<string, SslMode> = {
  disable: 'disable',
  allow: 'require',
  prefer: 'require',
  require: 'require',
  'verify-ca': 'verify-ca',
  'verify-full': 'verify-full',
};

function isLoopback(host: string): boolean {
  return host === 'localhost' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::1';
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The target of a connection string, or what is wrong with it (never the string or its password). */
export function parseConnectionString(text: string): { target: StoreTarget } | { problem: TargetProblem } {
  if (text.length > MAX_CONNECTION_STRING) return { problem: 'tooLong' };
  const trimmed = text.trim();
  if (!/^postgres(ql)?:\/\//i.test(trimmed)) return { problem: 'notPostgres' };
  // Several hosts ("h1,h2") are libpq's failover: not taken (one store, one host).
  const authority = trimmed.slice(trimmed.indexOf('//') + 2).split(/[/?#]/)[0];
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  if (hostPort.includes(',')) return { problem: 'severalHosts' };
  const portText = /:([0-9]+)$/.exec(hostPort)?.[1];
  if (portText !== undefined && !(portText.length <= 5 && Number(portText) >= 1 && Number(portText) <= 65535)) {
    return { problem: 'badPort' };
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { problem: 'notPostgres' };
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1'); // an IPv6 address without its brackets
  if (!host) return { problem: 'noHost' };
  const port = url.port === '' ? 5432 : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { problem: 'badPort' };
  const database = decoded(url.pathname.replace(/^\//, ''));
  if (!database || database.includes('/')) return { problem: 'noDatabase' };
  const user = decoded(url.username);
  const password = decoded(url.password);
  // No password (none, or empty): the driver would read PGPASSWORD from the extension host's environment and send it.
  if (!user || !password) return { problem: 'noUser' };
  const local = isLoopback(host);
  const asked = url.searchParams.get('sslmode');
  const sslmode = asked === null ? (local ? 'disable' : 'verify-full') : SSL_MODES[asked];
  if (!sslmode) return { problem: 'badSslMode' };
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    // The label is shown (notifications, the status line, the log): the names in it are the string's, made inert.
    target: {
      host,
      port,
      database,
      user,
      password,
      sslmode,
      local,
      label: inert(`${user}@${shownHost}:${port}/${database}`, 200),
    },
  };
}
