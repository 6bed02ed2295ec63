import { ApiError } from '../api/errors';
import { parseServiceUrl, type UrlPolicy } from '../api/url';
import { t } from '../base/l10n';
import type { ServiceEntryLike } from './serviceTargets';

export const MAX_SERVICES = 20;
export const MAX_SERVICE_NAME = 60;

// Placeholder for the parser being written beside this branch (replaced on merge).
export function parseServiceEntries(raw: unknown, policy: UrlPolicy): { entries: ServiceEntryLike[]; warnings: string[] } {
  const entries: ServiceEntryLike[] = [];
  const warnings: string[] = [];
  if (!Array.isArray(raw)) return { entries, warnings };
  for (const item of raw) {
    if (entries.length + warnings.length >= MAX_SERVICES) break;
    const name = typeof item?.name === 'string' ? item.name.trim() : '';
    try {
      const url = parseServiceUrl(typeof item?.url === 'string' ? item.url : '', policy);
      if (!name || entries.some((e) => e.name.toLowerCase() === name.toLowerCase())) throw new ApiError('invalidUrl', t('Skipped a service entry'));
      entries.push({ id: `${url.baseUrl}`, name, url, teamId: typeof item?.teamId === 'string' ? item.teamId : undefined });
    } catch {
      warnings.push(t('Skipped a service entry'));
    }
  }
  return { entries, warnings };
}
