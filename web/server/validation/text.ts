/**
 * Free-text rules for names, subjects and messages. Text that will end up in a mail header
 * (name, subject) must be a single line; all text refuses invisible or direction-changing
 * characters, which are how look-alike and reordered text is forged.
 */

// Controls (incl. CR, LF, NUL), format characters (zero-width, bidi overrides, BOM), lone
// surrogates, private use, unassigned code points and the Unicode line/paragraph separators.
const FORBIDDEN_IN_LINE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\u2028\u2029]/u;

// Same, but a message may contain tabs and line breaks, and the zero-width joiner that
// composes emoji sequences.
const FORBIDDEN_IN_TEXT = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\p{Cs}\p{Co}\p{Cn}\u2028\u2029]|(?!\u200D)\p{Cf}/u;

const HAS_VISIBLE = /\S/u;
const HAS_LETTER = /\p{L}/u;

/** One line of visible text: a subject, a county name. */
export function isSingleLineText(value: string): boolean {
  return HAS_VISIBLE.test(value) && !FORBIDDEN_IN_LINE.test(value);
}

/** A person's name: one line containing at least one letter. */
export function isPersonName(value: string): boolean {
  return isSingleLineText(value) && HAS_LETTER.test(value);
}

/** A message body: several lines allowed. */
export function isMultiLineText(value: string): boolean {
  return HAS_VISIBLE.test(value) && !FORBIDDEN_IN_TEXT.test(value);
}
