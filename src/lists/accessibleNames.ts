import { t } from '../base/l10n';
import type { IconSpec } from './icons';

/**
 * What a screen reader says for a tree row (TreeItem.accessibilityInformation.label): its label, then in words what
 * its icon and colour say (icons.ts), then its description's parts, then "stale data" when the list's data is stale.
 * A word said twice (the description already says "has errors") is said once. Texts are already inert.
 */
export function rowAccessibleName(row: {
  label: string;
  icon?: IconSpec;
  descriptions: readonly string[];
  stale?: boolean;
}): string {
  const parts = [
    row.label,
    row.icon?.words?.() ?? '',
    ...row.descriptions.flatMap((d) => d.split(' · ')),
    row.stale ? t('stale data') : '',
  ];
  const seen = new Set<string>();
  const said: string[] = [];
  for (const part of parts) {
    const p = part.trim();
    const key = p.toLowerCase();
    if (!p || seen.has(key)) continue;
    seen.add(key);
    said.push(p);
  }
  return said.join(', ');
}
