import { inert } from '../base/inert';
import { MAX_SERVICE_NAME } from '../base/serviceSet';
import { CONFUSABLE_LINES } from './confusableTable';
import { serviceNameKey, type ServiceEntriesRead } from './serviceEntries';
import type { ServiceEntryLike } from './serviceTargets';

/**
 * The UTS #39 confusable skeleton of a service name, in any letter case: the name as a person sees it (inert, NFKC),
 * lowercase, each letter that looks like lowercase ASCII replaced by what it looks like (Unicode's confusables.txt,
 * through the generated table: "Ꮲ", "ꓑ", "Ⲣ" and "ᴘ" are "p", "օ" is "o", "ı" and "l" are one letter, "m" is "rn"),
 * accents kept. Two names with the same skeleton are one name: a person cannot tell them apart in a pick or a row.
 *
 * Loaded with the services' code (a chunk): the table is about 2 KB, more than the start bundle has room for, so the
 * settings' own check at start (serviceNameKey) reads only the Cyrillic and Greek look-alikes, and the registry
 * refuses the rest before it makes a service (checkedEntries).
 */
export function confusableSkeleton(name: string): string {
  const seen = inert(name.normalize('NFKC'), MAX_SERVICE_NAME * 4, '')
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFD');
  let out = '';
  for (const c of seen) out += LOOK_ALIKES.get(c) ?? c;
  return out.normalize('NFC');
}

/** The generated lines as a map: look-alike letter → the lowercase ASCII it looks like. */
const LOOK_ALIKES: ReadonlyMap<string, string> = new Map(
  CONFUSABLE_LINES.flatMap((line) => {
    const [target, sources] = line.split(' ');
    return [...sources].map((source): [string, string] => [source, target]);
  }),
);

/** What checkedEntries reads: `flowsync.services` as the settings read it, and what the settings said of it. */
interface RawServices {
  readonly services: readonly ServiceEntryLike[];
  readonly servicesRead?: ServiceEntriesRead;
  readonly serviceWarnings?: readonly string[];
}

/**
 * Chooses the settings' entries again with names compared by their skeleton (after serviceNameKey, so that whatever
 * the settings refused stays refused), from the entries as the settings read them (no URL is parsed again): an entry
 * whose name looks like an earlier one's is skipped, and `warn` says so once (the same sentence as every other skipped
 * entry). Without the read, the settings' entries as they are.
 */
export function checkedEntries(
  warn: (message: string) => void,
): (settings: RawServices) => readonly ServiceEntryLike[] {
  const said = new Set(['']);
  return (settings) => {
    if (settings.servicesRead === undefined) return settings.services;
    const read = settings.servicesRead.choose((name) => confusableSkeleton(serviceNameKey(name)));
    for (const warning of read.warnings) {
      if (!said.has(warning) && !settings.serviceWarnings?.includes(warning)) warn(warning);
      said.add(warning);
    }
    return read.entries;
  };
}
