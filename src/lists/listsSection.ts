import type { SettingKey } from '../settings/settingKeys';
import type { SettingsReader } from '../settings/settingsFeed';
import { validArrangement, type Arrangement } from './arrangement';
import type { ListId } from './index';
import { LIST_FACES } from './listFaces';

/** The lists' section of the settings snapshot (read with the rest, once per change: SettingsSections). */
export interface ListsSection {
  /** How each list's rows are grouped and sorted (its two settings; an unknown value falls back to the default). */
  arrangements: Readonly<Record<ListId, Arrangement>>;
}

/** Reads each list's `groupBy` / `sortBy` settings (`arrangements.groupBySetting` / `sortBySetting`), as merged. */
export function readListsSection(read: SettingsReader): ListsSection {
  const text = (key: SettingKey) => {
    const value = read.get(key);
    return typeof value === 'string' ? value : undefined;
  };
  const arranged = LIST_FACES.map((list) => [
    list.id,
    validArrangement(list, {
      groupBy: text(list.arrangements.groupBySetting),
      sortBy: text(list.arrangements.sortBySetting),
    }),
  ]);
  return { arrangements: Object.freeze(Object.fromEntries(arranged) as Record<ListId, Arrangement>) };
}
