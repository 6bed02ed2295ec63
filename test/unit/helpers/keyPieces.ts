/**
 * The test's own oracle for "no piece of the key": the first 8-character piece of `key` (any letter case) that `text`
 * holds, or undefined. Written apart from the code under test so the two cannot share a mistake.
 */
export function keyPiece(text: string, key: string, length = 8): string | undefined {
  const lower = text.toLowerCase();
  const lowerKey = key.toLowerCase();
  for (let i = 0; i + length <= lowerKey.length; i++) {
    const at = lower.indexOf(lowerKey.slice(i, i + length));
    if (at >= 0) return text.slice(at, at + length);
  }
  return undefined;
}

/** A key shaped like the service's: long, mixed case, digits and punctuation. */
export const LONG_KEY = 'fsk_Live_7Hq2Zp9Xw4Lm8Rt3Vb6Nc1Jd';
