import { inert } from '../base/inert';
import { own } from '../base/own';

/*
 * What went wrong with the team's store, in words of our own. A driver's error is never handed on: its code is read
 * (SQLSTATE, or Node's and the driver's codes), its message kept only as inert text with the password masked, and
 * a new StoreError made from them, with no cause, so the connection string (its password above all) cannot reach a
 * log, an error message or a notification through it.
 */

/** What the status of team History says, one line each (the vscode side words them). */
export type StoreProblem =
  | 'badConnectionString'
  | 'unreachable'
  | 'refusedPassword'
  | 'noDatabase'
  | 'noPrivilege'
  | 'certificate'
  | 'tls'
  | 'timeout'
  | 'connectionLost'
  | 'readOnly'
  | 'serverFull'
  | 'newerSchema'
  | 'other';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly problem: StoreProblem,
    /** The SQLSTATE or Node's code of what failed (letters, digits and '_' only), when there was one. */
    readonly code: string | undefined,
    detail = '',
  ) {
    super(detail ? `${SENTENCES[problem]} (${detail})` : SENTENCES[problem]);
  }
}

const SENTENCES: Record<StoreProblem, string> = {
  badConnectionString: 'The connection string is not a PostgreSQL connection string this extension can use',
  unreachable: 'The team History store cannot be reached',
  refusedPassword: 'The team History store refused the user name or password',
  noDatabase: 'The database of the connection string does not exist',
  noPrivilege: 'The store’s role lacks a privilege team History needs',
  certificate: 'The store’s TLS certificate was refused',
  tls: 'The TLS connection to the store failed',
  timeout: 'The team History store did not answer in time',
  connectionLost: 'The connection to the team History store was lost',
  readOnly: 'The team History store takes no writes (read-only)',
  serverFull: 'The team History store is out of space or memory',
  newerSchema: 'The store’s tables are of a newer version of this extension: it reads and never writes',
  other: 'The team History store failed',
};

/** SQLSTATE classes and codes, and Node's and the driver's codes, by what they mean here. */
const BY_CODE: ReadonlyArray<[RegExp, StoreProblem]> = [
  [/^(28P01|28000)$/, 'refusedPassword'],
  [/^3D000$/, 'noDatabase'],
  [/^42501$/, 'noPrivilege'],
  [/^(25006)$/, 'readOnly'],
  [/^(53100|53200|53300|53000)$/, 'serverFull'],
  [/^(57014|CONNECT_TIMEOUT|ETIMEDOUT)$/, 'timeout'],
  [
    /^(57P01|57P02|57P03|08000|08003|08006|08001|08004|CONNECTION_CLOSED|CONNECTION_ENDED|CONNECTION_DESTROYED|ECONNRESET|EPIPE)$/,
    'connectionLost',
  ],
  [/^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL)$/, 'unreachable'],
  [
    /^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|CERT_UNTRUSTED|CERT_REJECTED|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH)$/,
    'certificate',
  ],
  [/^(ERR_SSL_.*|EPROTO|SSL_NOT_SUPPORTED)$/, 'tls'],
];

/** Longest piece of a driver's or server's message kept (inert) in a StoreError. */
const MAX_DETAIL = 200;

/**
 * A StoreError for whatever a driver threw: its code (SQLSTATE or Node's) says the problem; its message, made inert
 * and with every `secret` masked (the password; a hostile server may echo anything), is the detail. Never the error
 * itself, its cause, its stack or any other field.
 */
export function storeErrorOf(error: unknown, secrets: readonly string[]): StoreError {
  if (error instanceof StoreError) return error;
  const rawCode = own(error, 'code') ?? (error instanceof Error ? (error as { code?: unknown }).code : undefined);
  const code = typeof rawCode === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(rawCode) ? rawCode : undefined;
  const problem = (code && BY_CODE.find(([pattern]) => pattern.test(code))?.[1]) || 'other';
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  let detail = message;
  for (const secret of secrets) if (secret) detail = inert(detail, MAX_DETAIL * 4, secret);
  detail = inert(detail, MAX_DETAIL);
  return new StoreError(problem, code, code && detail ? `${code}: ${detail}` : (code ?? detail));
}
