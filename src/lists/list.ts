import type { Item } from '../api/types';
import type { Validator } from '../api/validate';
import type { CommandId } from '../base/commandIds';
import type { GroupKey } from './grouping';
import type { IconSpec } from './icons';
import type { TeamDirectory } from './teams';
import type { RowAdapter } from './treeModel';
import type { SettingKey } from '../settings/settingKeys';

/**
 * A list's face: what its view and its two settings need at start (src/lists/listFaces.ts: each list's, in the
 * registry's order), without the code of its rows (validation, texts, icons, groupings and sortings), which loads with
 * the services' chunk. Its ListDefinition is the face and those parts. Pure: no vscode.
 */
export interface ListFace {
  /** Registry key: in JSON document URIs, tree nodes and the Explorer's `lists`. */
  readonly id: string;
  /** The view that shows it (package.json `contributes.views`). */
  readonly viewId: string;
  /**
   * True: loaded at once and polled on the refresh interval (slower while the window is unfocused).
   * False: loaded when its view is first shown, again after a change of service, key or team, and on demand.
   */
  readonly polled: boolean;
  readonly rows: {
    /** The description of its rows holds a relative time: it ages while the data stays the same. */
    readonly descriptionAges: boolean;
  };
  /** The names of its groupings and sortings, the settings that hold the choice, and their defaults. */
  readonly arrangements: ArrangementChoices;
  /** The view's message when the list is empty. */
  emptyText(): string;
  /** How many items, in words ("3 syncs"): a service's row says it when the view shows several services. */
  count(n: number): string;
  /** The view's badge for a count, if the list shows one. */
  badge?(count: number): { value: number; tooltip: string } | undefined;
}

/**
 * One list the extension shows: everything that differs between lists, declared once. Explorer, the views, the
 * commands, the JSON documents and the notifications loop over the registry (src/lists/index.ts); a new list is one
 * module like processing.ts, its face in listFaces.ts, plus its manifest entries (view, welcome contents, commands,
 * settings). Pure: no vscode.
 */
export interface ListDefinition<T extends { id: number }> extends ListFace {
  /** The command that refreshes only this list (package.json `contributes.commands`). */
  readonly refreshCommand: CommandId;
  /** Names the list in messages, e.g. "processing flow syncs". */
  label(): string;
  /** Names one item, e.g. "Flow sync #1003" (messages about a link or a missing item). */
  itemName(id: number): string;
  /** Path of its endpoint below /api/public/v1. */
  readonly endpoint: string;
  readonly validate: Validator<T>;
  /** How one row looks; `leafIdPrefix` is also the path of its links (vscode://…/sync?id=1). */
  readonly rows: RowAdapter<T>;
  /** The ways its rows can be grouped and sorted, the settings that hold the choice, and the command that asks. */
  readonly arrangements: Arrangements<T>;
  /** Titles of the read-only JSON documents of an item, a group and several selected items. */
  readonly json: {
    itemTitle(id: number): string;
    groupTitle(grouping: string, key: GroupKey): string;
    itemsTitle(count: number): string;
  };
  /**
   * How its items appear in a quick pick (Open as JSON without a selection); texts from the service are made inert
   * there. An item is found there by its id, `otherId` and its names as they are typed (src/filter/pickRows.ts).
   */
  readonly pick: {
    title(): string;
    icon: string;
    label(value: T): string;
    description(value: T): string;
    otherId(value: T): number | undefined;
    name(value: T): string | undefined;
    otherName(value: T): string | undefined;
  };
  /** Called after each successful load, e.g. to learn the teams. `complete`: the answer was not filtered by team. */
  onLoaded?(context: ListContext, values: readonly T[], complete: boolean): void;
}

/** One way to group a list's rows (a flow, a status, a team, a type). */
interface Grouping<T> {
  /** Its name in the Group By quick pick, e.g. "Flow". */
  label(): string;
  keyOf(value: T): GroupKey;
  /** A group row's label, from its first item. */
  labelOf(value: T): string;
  /** A group row's icon, from its first item. */
  icon(sample: T): IconSpec;
  /** Prefix of group row ids ("flow:7") and contextValue of group rows (menus). */
  readonly idPrefix: string;
  readonly context: string;
  /** A group row's description, e.g. "3 syncs". */
  describe(count: number): string;
}

/** One order of rows within a group (or of the flat list). */
interface Sorting<T> {
  /** Its name in the quick pick, e.g. "Start time, newest first". */
  label(): string;
  /** Sorts in place. A SortItems with `order` (byText) lets grouping sort a whole answer at once (see groupBy). */
  sort(items: Item<T>[]): void;
  /** What decides a value's place in this order (part of TreeAdapter.placement). */
  placement(value: T): string;
  /** True when two values have the same placement (the fields it is made of are equal). */
  samePlace(a: T, b: T): boolean;
}

/** How a list's rows may be arranged, as the settings read at start know it: names only. */
interface ArrangementChoices {
  /** The names of its groupings and of its sortings (`none`: the flat list), each the key of one in Arrangements. */
  readonly groupingNames: readonly string[];
  readonly sortingNames: readonly string[];
  /** The settings (below `flowsync.`) that hold the choice, and their defaults. */
  readonly groupBySetting: SettingKey;
  readonly sortBySetting: SettingKey;
  readonly defaultGroupBy: string;
  readonly defaultSortBy: string;
}

interface Arrangements<T> extends ArrangementChoices {
  /**
   * By name, exactly the face's `groupingNames` and `sortingNames`; `null` is the flat list ("none"). The setting's
   * enum in package.json lists the same names.
   */
  readonly groupings: Readonly<Record<string, Grouping<T> | null>>;
  readonly sortings: Readonly<Record<string, Sorting<T>>>;
  /** The command that asks for both (the view's title bar), and its quick pick's title. */
  readonly command: CommandId;
  title(): string;
  /** What "none" is called in the quick pick. */
  noneLabel(): string;
}

/** What a list may update after a load. */
interface ListContext {
  teams: TeamDirectory;
}

/** A grouping and a sorting for each name of the face's (test/unit/lists/registry.test.ts: and no other). */
interface NamedByItsFace<D extends ListFace> {
  readonly arrangements: {
    readonly groupings: Readonly<Record<D['arrangements']['groupingNames'][number], unknown>>;
    readonly sortings: Readonly<Record<D['arrangements']['sortingNames'][number], unknown>>;
  };
}

/**
 * Declares a list of values of type T from its face (src/lists/listFaces.ts), keeping its literal types (so the
 * Explorer's `lists` are typed per id): `defineList<FlowSync>()({ ...processingFace, … })`. It is a ListDefinition<T>
 * too, so code that works on any list takes it as one of "has an id" (ANY_LISTS) without a cast.
 */
export function defineList<T extends { id: number }>() {
  return <const D extends ListDefinition<T>>(definition: D & NamedByItsFace<D>): D & ListDefinition<T> => definition;
}
