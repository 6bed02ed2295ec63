import { lazyRegExp } from '../base/lazyRegExp';

/**
 * Text as the filter compares it: letter case, accents and compatibility forms folded (NFKD, combining marks removed,
 * lower case), invisible and format characters removed, whitespace collapsed. "Café" and "CAFE" fold alike, so do
 * "ﬁle" and "file". Pure; ASCII text (most of what a service sends) takes the quick path.
 */
export function foldForSearch(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase().replace(SPACES, ' ').trim();
  return text.normalize('NFKD').replace(MARKS_AND_INVISIBLES(), '').toLowerCase().replace(SPACES, ' ').trim();
}

const ASCII = /^[\u0020-\u007e]*$/;
const MARKS_AND_INVISIBLES = lazyRegExp('[\\p{M}\\p{Cf}\\p{Default_Ignorable_Code_Point}]', 'gu');
const SPACES = /\s+/g;
