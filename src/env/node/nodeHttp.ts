import fetch from 'node-fetch';
import type { Readable } from 'node:stream';
import type { HttpAnswer, Platform } from '../types';

/**
 * The GET of Node's extension hosts (desktop, remote, code-server): node-fetch, which goes through VS Code's proxy
 * support (src/env/node/platform.ts).
 */
export const httpGet: Platform['httpGet'] = async (url, { headers, signal }): Promise<HttpAnswer> => {
  const response = await fetch(url, { method: 'GET', redirect: 'manual', signal, headers });
  const body = response.body as Readable | null;
  return {
    status: response.status,
    statusText: response.statusText,
    header: (name) => response.headers.get(name),
    body,
    cancel: () => body?.destroy(),
  };
};
