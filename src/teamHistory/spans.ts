import type { WatchSpan } from './teamRows';

/*
 * When someone was watching (pure). Each installation writes the spans it watched a service (its first and last
 * complete answers, with its team filter); from all of them, the activity chart shows the spans when no one was
 * watching, and History's tooltip how many installations watched today. A span of a team filter watched only that
 * team's syncs: where only such spans cover a time, it was watched in part.
 */

/** A stretch of [from, to) that was not watched whole: by nobody, or only by windows of some teams' filters. */
export interface Gap {
  readonly from: number;
  readonly to: number;
  /** The team filters that watched it ([] when nobody did), ascending. */
  readonly teams: readonly string[];
}

/**
 * The stretches of [from, to) that no span of every team ('' filter) covers, in time order: with the team filters
 * that covered each part of it. Adjacent stretches with the same teams are one. O(n log n) in the spans.
 */
export function unwatched(spans: Iterable<Pick<WatchSpan, 'from' | 'to' | 'team'>>, from: number, to: number): Gap[] {
  if (!(to > from)) return [];
  // Edges of every span clipped to [from, to): +1 where it starts, -1 where it ends, per team filter.
  const edges: Array<[at: number, team: string, step: 1 | -1]> = [];
  for (const s of spans) {
    const a = Math.max(from, s.from);
    const b = Math.min(to, s.to);
    if (b <= a) continue;
    edges.push([a, s.team, 1], [b, s.team, -1]);
  }
  edges.sort((x, y) => x[0] - y[0] || x[2] - y[2]);
  const open = new Map<string, number>();
  const gaps: Gap[] = [];
  let at = from;
  const close = (until: number) => {
    if (until <= at) return;
    if ((open.get('') ?? 0) > 0) return;
    const teams = [...open.keys()].sort();
    const last = gaps[gaps.length - 1];
    if (last && last.to === at && sameTeams(last.teams, teams)) gaps[gaps.length - 1] = { ...last, to: until };
    else gaps.push({ from: at, to: until, teams });
  };
  for (const [t, team, step] of edges) {
    close(t);
    at = Math.max(at, t);
    const n = (open.get(team) ?? 0) + step;
    if (n > 0) open.set(team, n);
    else open.delete(team);
  }
  close(to);
  return gaps;
}

function sameTeams(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

/** How many installations watched some time of [from, to) (for "team History: 3 installations watched today"). */
export function watchedBy(
  spans: Iterable<Pick<WatchSpan, 'from' | 'to' | 'observer'>>,
  from: number,
  to: number,
): number {
  const observers = new Set<string>();
  for (const s of spans) if (s.from < to && s.to >= from) observers.add(s.observer);
  return observers.size;
}
