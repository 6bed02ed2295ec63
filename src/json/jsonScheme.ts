/** The URI scheme of the read-only JSON documents ("Open as JSON"). */
export const JSON_SCHEME = 'flowsync-json';
