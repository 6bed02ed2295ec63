import type * as vscode from 'vscode';
import { t } from '../../base/l10n';
import { STATE_KEYS } from '../../base/stateKeys';
import { parseConnectionString, type StoreTarget, type TargetProblem } from '../connectionString';
import { postgresSql } from '../postgres/postgresSql';
import { StoreError } from '../storeErrors';
import { statusLine, TeamSession } from '../teamSession';
import { TeamStore } from '../teamStore';
import type { OpenedStore, TeamAnswer, TeamHistoryDeps } from './teamHistoryTypes';

/*
 * The `teamHistory` chunk's entry (esbuild.js CHUNKS): a store opened from a connection string, its session made and
 * handed to the window's TeamSlot. Loaded only when a connection string is kept or given.
 */

/** An installation's id: 8-64 of [A-Za-z0-9_-] (teamRows.ts reads no other). */
const OBSERVER_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** This installation's id in the store: drawn once (a random UUID, never a user name), kept in globalState. */
function observerId(state: vscode.Memento): string {
  const kept = state.get<unknown>(STATE_KEYS.teamHistoryObserver);
  if (typeof kept === 'string' && OBSERVER_ID.test(kept)) return kept;
  const drawn = crypto.randomUUID();
  void state.update(STATE_KEYS.teamHistoryObserver, drawn);
  return drawn;
}

const PROBLEMS: Record<TargetProblem, () => string> = {
  tooLong: () => t('The connection string is too long.'),
  notPostgres: () => t('The connection string must start with postgres:// or postgresql://.'),
  noHost: () => t('The connection string names no host.'),
  severalHosts: () => t('The connection string names several hosts; give one.'),
  badPort: () => t('The port of the connection string is not a port (1-65535).'),
  noDatabase: () => t('The connection string names no database.'),
  noUser: () => t('The connection string names no user and password.'),
  badSslMode: () => t('The sslmode of the connection string is not one of disable, require, verify-ca, verify-full.'),
};

/** A session over the store of `target`, joined to the window's slot and started. */
function startSession(deps: TeamHistoryDeps, target: StoreTarget): { session: TeamSession; store: TeamStore } {
  const { clock, log, settings, globalState, slot } = deps;
  const observer = observerId(globalState);
  const store = new TeamStore(postgresSql(target), observer, () => clock.now());
  const session = new TeamSession({
    store,
    observer,
    clock,
    random: Math.random,
    readers: () => slot.readers(),
    retention: {
      last: () => {
        const at = globalState.get<unknown>(STATE_KEYS.teamHistoryRetention);
        return typeof at === 'number' && Number.isFinite(at) ? at : undefined;
      },
      ran: (at) => void globalState.update(STATE_KEYS.teamHistoryRetention, at),
    },
    pollIntervalMs: () => settings.current.refreshIntervalSeconds * 1000,
    historyDays: () => settings.current.historyDays,
    label: target.label,
    log: (level, line) => log[level](line),
  });
  slot.use(session);
  session.start();
  return { session, store };
}

/** What a store open to `target` says of its TLS when it is less than verified (a sentence that starts with a space). */
function tlsWarning(target: StoreTarget): string {
  switch (target.sslmode) {
    case 'require':
      return t(' The connection is encrypted, but the server’s certificate is not verified (sslmode=require).');
    case 'verify-ca':
      return t(' The server’s certificate is verified, but not its host name (sslmode=verify-ca).');
    case 'disable':
      return target.local
        ? ''
        : t(' The connection is not encrypted (sslmode=disable): anyone on the network can read it.');
    default:
      return '';
  }
}

/**
 * Opens the store of `text`: its session starts (in the background) and joins the slot. `answer`: the Connect command
 * waits for what the first open() found and says it (a store it could not open is closed again and not kept); at
 * start it does not wait (the session retries with backoff, its status says why).
 */
export async function openTeamStore(
  deps: TeamHistoryDeps,
  text: string,
  answer: boolean,
): Promise<{ store: OpenedStore | undefined; answer: TeamAnswer }> {
  const parsed = parseConnectionString(text);
  if ('problem' in parsed) return { store: undefined, answer: { level: 'error', text: PROBLEMS[parsed.problem]() } };
  const { target } = parsed;
  const { session, store } = startSession(deps, target);
  const opened: OpenedStore = {
    close: () => session.close(),
    deleteOwn: async () => {
      try {
        const { runs } = await store.deleteOwn();
        return { level: 'info', text: t('Deleted this installation’s {0} runs from the team’s store.', runs) };
      } catch (e) {
        return { level: 'error', text: (e instanceof StoreError ? e : new StoreError('other', undefined)).message };
      }
    },
  };
  if (!answer) return { store: opened, answer: { level: 'info', text: '' } };
  const found = await session.opened;
  if (found instanceof StoreError) {
    deps.slot.use(undefined);
    await session.close(0);
    const text = t('Team History could not connect to {0}: {1}.', target.label, found.message);
    return { store: undefined, answer: { level: 'error', text } };
  }
  const now = deps.clock.now();
  if (found.readOnly) {
    return { store: opened, answer: { level: 'warning', text: statusLine(session.status, target.label, now) } };
  }
  const tls = tlsWarning(target);
  const said = t(
    'Team History connected to {0}: the runs this window sees are shared with everyone who reads that store, and theirs show in History.',
    target.label,
  );
  return { store: opened, answer: { level: tls ? 'warning' : 'info', text: said + tls } };
}
