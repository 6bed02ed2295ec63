/**
 * Reading a language model tool's answer (src/tools/: each tool's answer, fenced by dataBlock.ts) in tests: its one data block, the block's notes
 * (the service's or the caller's text the sentences outside refer to) and rows, and what stands outside the block.
 */
import * as assert from 'node:assert/strict';
import { DATA_END, DATA_START } from '../../../src/tools/dataBlock';

/** A note of the block: "last error: …", "filters: …", "known teams: …", "problem: …", "name of team #3: …", "service: …" (several services), "asked: …" and "services: …" (a service not set up). */
const NOTE = /^(name of team #\d+|last error|problem|known teams|filters|filter problem|service|asked|services): (.*)$/;

/** How every line of the block starts: a note's label or a row's first field, all the extension's own wording. */
export const BLOCK_LINE =
  /^(name of team #\d+: |last error: |problem: |known teams: |filters: |service: |asked: |services: |flow sync #\d+ \| |connection #\d+ \| |stuck \| flow sync #\d+ \| |flow "(?:[^"\\]|\\.)*" \(#\d+\) \| |no longer processing (unknown time|just now|\d+ (s|min|h|d) ago) \| )/;

/**
 * The lines of the data block ([] when there is none). Asserts the block opens and closes at most once, each marker a
 * line of its own, in order: a forged marker line would show here.
 */
export function blockLines(answer: string): string[] {
  const lines = answer.split('\n');
  const starts = lines.filter((l) => l === DATA_START).length;
  assert.ok(
    starts <= 1 && lines.filter((l) => l === DATA_END).length === starts,
    `at most one ${DATA_START} … ${DATA_END} block:\n${answer}`,
  );
  if (starts === 0) return [];
  const start = lines.indexOf(DATA_START);
  const end = lines.indexOf(DATA_END);
  assert.ok(start < end, `the block opens before it closes:\n${answer}`);
  return lines.slice(start + 1, end);
}

/** The rows of the data block (its notes left out). */
export function dataRows(answer: string): string[] {
  return blockLines(answer).filter((l) => !NOTE.test(l));
}

/** The notes of the data block: label → text. */
export function notes(answer: string): Record<string, string> {
  return Object.fromEntries(
    blockLines(answer).flatMap((l) => {
      const m = NOTE.exec(l);
      return m ? [[m[1], m[2]]] : [];
    }),
  );
}

/** The answer with its data block replaced by "(block)": what reads as the extension's own words. */
export function outside(answer: string): string {
  blockLines(answer);
  const lines = answer.split('\n');
  const start = lines.indexOf(DATA_START);
  return start < 0
    ? answer
    : [...lines.slice(0, start), '(block)', ...lines.slice(lines.indexOf(DATA_END) + 1)].join('\n');
}
