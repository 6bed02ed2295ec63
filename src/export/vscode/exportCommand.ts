import * as vscode from 'vscode';
import { bounded, inert } from '../../base/inert';
import { t } from '../../base/l10n';
import { platform } from '../../env/platform';
import type { HistoryEntry } from '../../history/entry';
import type { HistoryService } from '../../history/vscode/historyService';
import { exportFileName, type ExportFormat } from '../export';
import {
  EXPORT_STEP_ROWS,
  exportArgument,
  exportTotal,
  isTargetExists,
  writeExport,
  type ExportSink,
  type ExportSource,
} from '../exportRun';
import { historyEntryFilter } from '../../history/historyFilter';
import { temporaryPath } from '../../env/temporaryName';
import { isTooLarge, WHOLE_FILE_BYTES, wholeFileSink } from '../wholeFile';
import { rememberedSink } from '../leftovers';
import { leftoverMemory } from './leftoverSweep';

/** A service as Export History sees it: its name, its base URL (the one service's host names it) and its History. */
interface ExportService {
  readonly name?: string;
  readonly target: { readonly baseUrl: string };
  readonly history: HistoryService;
}

/** What Export History uses: the services, in order, and each by its name (the argument form's `service`). */
export interface ExportDeps {
  readonly services: { readonly all: readonly ExportService[]; byName(name: string): ExportService | undefined };
  /** globalState: where an export's temporary file is remembered until its commit or abort. */
  readonly globalState: vscode.Memento;
}

/** What one export writes: where, in which format, which services, and (the seam for the History view's filter) which runs. */
interface ExportRequest {
  readonly uri: vscode.Uri;
  readonly format: ExportFormat;
  readonly services: readonly ExportService[];
  /** globalState: where the temporary file is remembered until the commit or abort. */
  readonly state: vscode.Memento;
  /** May an existing file be replaced (the save dialog asked the person); false for the argument form. */
  readonly replace: boolean;
  /** Keeps only the runs this says yes to: the History view's filter, where one is set (none: every run kept). */
  readonly filter?: (entry: HistoryEntry, service: ExportService) => boolean;
}

/**
 * Export History...: the runs History keeps (what the History view shows), of one service or all, as CSV or JSON
 * Lines. From the palette or the History view's title it asks the format, the service (with several) and the file;
 * with one argument `{ uri, format, service?, filter? }` (tasks, key bindings) it asks nothing and refuses a file that
 * exists. The file is written in chunks to a temporary file beside it and renamed when complete, under a cancellable
 * progress notification: a cancelled or failed export leaves no partial file.
 */
export async function exportHistory(deps: ExportDeps, arg?: unknown): Promise<void> {
  const given = exportArgument(arg);
  if (given && 'problem' in given) return argumentRefused(given.problem);
  if (given) return exportAsGiven(deps, given);
  const format = await pickFormat();
  if (!format) return;
  const services = await pickServices(deps);
  if (!services) return;
  const name = exportFileName(services.length === 1 ? exportServiceColumn(services[0]) : undefined, Date.now(), format);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = await vscode.window.showSaveDialog({
    title: t('Export History'),
    defaultUri: folder ? vscode.Uri.joinPath(folder, name) : vscode.Uri.file(name),
    filters: format === 'csv' ? { [t('CSV')]: ['csv'] } : { [t('JSON Lines')]: ['jsonl'] },
    saveLabel: t('Export'),
  });
  if (!uri) return;
  // The save dialog asked whether to replace a file that exists.
  await exportTo({ uri, format, services, state: deps.globalState, replace: true });
}

/** Says that the command's argument cannot be used, naming the field (`problem`). */
function argumentRefused(problem: string): void {
  void vscode.window.showErrorMessage(
    t(
      'Export History: the argument must be {0} (its "{1}" cannot be used).',
      '{ uri, format: "csv" | "jsonl", service?, filter? }',
      problem,
    ),
  );
}

/** Export History with its argument: asks nothing, and never replaces a file. */
async function exportAsGiven(
  deps: ExportDeps,
  given: Exclude<ReturnType<typeof exportArgument>, undefined | { problem: string }>,
): Promise<void> {
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(given.uri, true);
  } catch {
    return argumentRefused('uri');
  }
  const services =
    given.service === undefined
      ? deps.services.all
      : [deps.services.byName(given.service)].filter((s): s is ExportService => s !== undefined);
  if (services.length === 0) {
    void vscode.window.showErrorMessage(t('Export History: no service is named {0}.', inert(given.service ?? '', 60)));
    return;
  }
  const filter = given.filter === undefined ? undefined : filterOf(given.filter, services);
  if (filter && 'problem' in filter) {
    void vscode.window.showErrorMessage(t('Export History: the filter cannot be used. {0}', filter.problem));
    return;
  }
  if (await exists(uri)) {
    void vscode.window.showErrorMessage(
      t(
        'Export History did not write {0}: the file exists. Given as an argument, a file is never replaced; choose a new name or delete it first.',
        inert(uriName(uri), 200),
      ),
    );
    return;
  }
  await exportTo({
    uri,
    format: given.format,
    services,
    state: deps.globalState,
    replace: false,
    filter: filter?.test,
  });
}

/** The argument's filter as a test of each service's runs (History's one matcher), or why it cannot be used. */
function filterOf(
  text: string,
  services: readonly ExportService[],
): { test: NonNullable<ExportRequest['filter']> } | { problem: string } {
  const tests = new Map<ExportService, (entry: HistoryEntry) => boolean>();
  for (const service of services) {
    const made = historyEntryFilter(text, exportServiceColumn(service), (id) => service.history.isWatched('sync', id));
    if ('problem' in made) return { problem: made.problem };
    tests.set(service, made.test);
  }
  return { test: (entry, service) => tests.get(service)?.(entry) ?? false };
}

/** Writes one export under a cancellable progress notification, and says how it went. */
async function exportTo(request: ExportRequest): Promise<void> {
  const sources: ExportSource[] = request.services.map((service) => {
    const test = request.filter;
    return {
      service: exportServiceColumn(service),
      entries: service.history.snapshot.entries,
      ...(test ? { filter: (entry: HistoryEntry) => test(entry, service) } : {}),
    };
  });
  const total = exportTotal(sources);
  const name = inert(uriName(request.uri), 200);
  let outcome;
  try {
    outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: t('Exporting History to {0}', name), cancellable: true },
      (progress, token) => {
        let reported = 0;
        return writeExport(() => openSink(request.uri, request.replace, request.state), {
          format: request.format,
          sources,
          // the window's masking: every service's key, and any piece of it, removed; the text bounded
          mask: (text, max) => bounded(text, max),
          cancelled: () => token.isCancellationRequested,
          progress: (rows) => {
            const step = total > 0 ? (100 * Math.min(rows - reported, EXPORT_STEP_ROWS)) / total : 0;
            reported = rows;
            progress.report({ increment: step, message: t('{0} runs', rows.toLocaleString()) });
          },
        });
      },
    );
  } catch (e) {
    if (isTargetExists(e)) {
      void vscode.window.showErrorMessage(
        t(
          'Export History did not write {0}: the file exists. Given as an argument, a file is never replaced; choose a new name or delete it first.',
          name,
        ),
      );
      return;
    }
    if (isTooLarge(e)) {
      void vscode.window.showErrorMessage(
        t(
          "Export History did not write {0}: it is not on this computer's disk, so the export is held in memory, and it stops at {1} MB. Export one service at a time, or choose a folder on this computer.",
          name,
          WHOLE_FILE_BYTES / (1024 * 1024),
        ),
      );
      return;
    }
    throw new Error(t('Export History could not write {0}: {1}', name, inert((e as Error)?.message ?? e)), {
      cause: e,
    });
  }
  if (outcome.kind === 'cancelled') {
    vscode.window.setStatusBarMessage(t('Export History cancelled: no file was written.'), 5000);
    return;
  }
  void vscode.window.showInformationMessage(t('Exported {0} runs of History to {1}.', outcome.rows, name));
}

/**
 * A service as an export names it (its `service` column, the file's name, what a filter's service: matches): its name,
 * or for the one service of flowsync.baseUrl its host. Not src/base/serviceSet.ts's serviceName (names shown only
 * with several services).
 */
function exportServiceColumn(service: ExportService): string {
  if (service.name) return service.name;
  try {
    return new URL(service.target.baseUrl).host;
  } catch {
    return service.history.snapshot.origin ?? '';
  }
}

async function pickFormat(): Promise<ExportFormat | undefined> {
  type Pick = vscode.QuickPickItem & { format: ExportFormat };
  const picks: Pick[] = [
    { label: t('CSV'), description: t('a spreadsheet: one run a row, with a header row'), format: 'csv' },
    { label: t('JSON Lines'), description: t('one JSON object a line: for scripts and tools'), format: 'jsonl' },
  ];
  return (await vscode.window.showQuickPick(picks, { title: t('Export History'), placeHolder: t('Choose the format') }))
    ?.format;
}

/** The one service, or with several: one of them or all. Undefined when the pick is cancelled. */
async function pickServices(deps: ExportDeps): Promise<readonly ExportService[] | undefined> {
  const all = deps.services.all;
  if (all.length <= 1) return all;
  type Pick = vscode.QuickPickItem & { services: readonly ExportService[] };
  const picks: Pick[] = [
    { label: t('All services'), description: t('{0} services, each run with its service', all.length), services: all },
    ...all.map((service) => ({
      label: inert(service.name ?? ''),
      description: inert(service.target.baseUrl),
      services: [service],
    })),
  ];
  return (await vscode.window.showQuickPick(picks, { title: t('Export History'), placeHolder: t('Choose a service') }))
    ?.services;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  return Promise.resolve(vscode.workspace.fs.stat(uri)).then(
    () => true,
    () => false,
  );
}

function uriName(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? uri.fsPath : uri.toString(true);
}

/**
 * The file's sink: node:fs on a local disk (streamed), else workspace.fs (written whole at the end, bounded). Its
 * temporary file is remembered in globalState from before it exists until the commit or abort (leftovers.ts), so one
 * left by a killed export is removed at the next start (exportLeftovers.ts).
 */
function openSink(uri: vscode.Uri, replace: boolean, state: vscode.Memento): Promise<ExportSink> {
  const temp = uri.with({ path: temporaryPath(uri.path) });
  return rememberedSink(leftoverMemory(state), temp.toString(), Date.now(), async () => {
    if (uri.scheme === 'file' && platform.pieceFile) return platform.pieceFile(uri.fsPath, replace, temp.fsPath);
    return workspaceSink(uri, temp, replace);
  });
}

/** An export through vscode.workspace.fs, which cannot append (wholeFile.ts): the temporary file beside the target. */
function workspaceSink(uri: vscode.Uri, temp: vscode.Uri, replace: boolean): ExportSink {
  const fs = vscode.workspace.fs;
  return wholeFileSink(
    {
      exists: () => exists(uri),
      writeTemporary: async (bytes) => fs.writeFile(temp, bytes),
      renameToTarget: async (overwrite) => fs.rename(temp, uri, { overwrite }),
      removeTemporary: async () => Promise.resolve(fs.delete(temp)).catch(() => undefined),
    },
    replace,
  );
}
