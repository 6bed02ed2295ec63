import { inert } from '../base/inert';
import { t } from '../base/l10n';

/**
 * History cannot be written (the disk is full, the folder read-only): every failure is logged, the person is told once
 * per window and service (`tell`: the vscode layer shows it), and the runs not written wait in the store for the next
 * poll (`unsaved`), which writes them first.
 */
export class HistoryWriteTrouble {
  /** Runs wait to be written: a write failed and none has worked since. */
  unsaved = false;
  private told = false;

  constructor(
    private readonly tell: (text: string) => void,
    private readonly log: (line: string) => void,
  ) {}

  failed(error: unknown): void {
    this.unsaved = true;
    this.log(
      `History could not be saved (the runs wait and are written by the next poll): ${inert((error as Error)?.message ?? error, 300)}`,
    );
    if (this.told) return;
    this.told = true;
    const code = (error as { code?: unknown })?.code;
    this.tell(
      typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,19}$/.test(code)
        ? t(
            'History cannot be written to disk ({0}). The syncs that finish are kept in this window and written when it can; the Flow Sync log says more.',
            code,
          )
        : t(
            'History cannot be written to disk. The syncs that finish are kept in this window and written when it can; the Flow Sync log says more.',
          ),
    );
  }

  saved(): void {
    this.unsaved = false;
  }
}
