/**
 * The language model tools' names: a stable contract (package.json `languageModelTools`, prompts, other extensions).
 * Apart from the tools' answers (src/tools/<tool>Result.ts), which are loaded on the first tool call (the chunk of
 * src/tools/vscode/toolAnswers.ts, esbuild.js CHUNKS): the tools are registered under these names at activation.
 */
export const TOOL_NAMES = {
  processing: 'flowsync_processing',
  connections: 'flowsync_connections',
  history: 'flowsync_history',
  insights: 'flowsync_insights',
} as const;
