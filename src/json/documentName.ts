import { inert } from '../base/inert';

/**
 * The file name of a JSON document (what its editor tab shows): the document's title, after the service's name when
 * several services are shown. Both may hold text from outside (a name from the settings, a group key from the service),
 * so the whole is shown inert (no bidi override, control character or line break; bounded) and is a file name without
 * path separators. Pure.
 */
export function documentName(title: string, serviceName?: string): string {
  const shown = inert(serviceName ? `${serviceName} · ${title}` : title);
  return `/${shown.replace(/[\\/]/g, '_')}.json`;
}
