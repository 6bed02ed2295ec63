import { t } from '../base/l10n';

/**
 * The rows a level of a tree shows at first, and adds with each "Show more": the workbench takes seconds to draw a
 * level of 10,000 rows or more handed to it at once (docs/performance.md, "The Processing tree at its caps, drawn").
 */
export const LEVEL_PAGE = 1_000;

/** The level of the root (a flat list's rows, or the group rows). A group's level is its own key (`groupLevel`). */
export const ROOT_LEVEL = 'root';

/** The level of a group's rows. */
export function groupLevel(key: string | number): string {
  return `group:${typeof key}:${key}`;
}

/** Where a level stops short of its rows: how many it shows and how many it has. */
export interface LevelCut {
  readonly level: string;
  readonly shown: number;
  readonly total: number;
}

/**
 * How many pages each level of one tree shows (1 until the person asks for more, or a reveal needs a later page). Kept
 * across answers (a refresh keeps what the person opened; a level that shrank shows the rows it has), forgotten when
 * the tree shows its rows another way (`reset`: grouped or sorted anew, another filter). Pure.
 */
export class LevelPages {
  private readonly pages = new Map<string, number>();

  constructor(readonly page = LEVEL_PAGE) {}

  /** How many of a level's `total` rows it shows. */
  shown(level: string, total: number): number {
    return Math.min(Math.max(0, total), (this.pages.get(level) ?? 1) * this.page);
  }

  /**
   * The rows a level shows (at most its pages' rows) and, when it shows fewer than it has, where it stops: the
   * "Show more" row follows them.
   */
  slice<R>(level: string, rows: readonly R[]): { rows: readonly R[]; cut?: LevelCut } {
    const shown = this.shown(level, rows.length);
    if (shown >= rows.length) return { rows };
    return { rows: rows.slice(0, shown), cut: { level, shown, total: rows.length } };
  }

  /** Shows one page more of a level of `total` rows (at most them all); the index of its first new row. */
  more(level: string, total: number): number {
    const first = this.shown(level, total);
    if (first < total) this.pages.set(level, Math.ceil(first / this.page) + 1);
    return first;
  }

  /** Makes a level show the page that holds its row at `index` (and every page before it); true when it showed less. */
  reveal(level: string, index: number): boolean {
    if (!Number.isSafeInteger(index) || index < 0) return false;
    const needed = Math.floor(index / this.page) + 1;
    if (needed <= (this.pages.get(level) ?? 1)) return false;
    this.pages.set(level, needed);
    return true;
  }

  /** Every level shows its first page again. */
  reset(): void {
    this.pages.clear();
  }
}

/** What the "Show more" row says: its label, and the same in words for a screen reader. */
export function moreTexts(
  cut: LevelCut,
  page = LEVEL_PAGE,
  count: (n: number) => string = (n) => n.toLocaleString(),
): { label: string; accessibleName: string } {
  const next = Math.min(page, cut.total - cut.shown);
  return {
    label: t('Show {0} more ({1} of {2} shown)', count(next), count(cut.shown), count(cut.total)),
    accessibleName: t(
      'Show {0} more rows: {1} of {2} rows are shown. Press Enter to show them.',
      count(next),
      count(cut.shown),
      count(cut.total),
    ),
  };
}
