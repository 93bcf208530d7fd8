/**
 * Free-text rules for names, subjects and messages. Text that will end up in a mail header
 * (name, subject) must be a single line; all text refuses invisible or direction-changing
 * characters, which are how look-alike and reordered text is forged.
 */

// Controls (incl. CR, LF, NUL), format characters (zero-width, bidi overrides, BOM), lone
// surrogates, private use, unassigned code points and the Unicode line/paragraph separators.
const FORBIDDEN_IN_LINE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\u2028\u2029]/u;

// Same, but a message may contain tabs and line breaks.
const FORBIDDEN_IN_TEXT = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\p{Cs}\p{Co}\p{Cn}\p{Cf}\u2028\u2029]/u;

// Format characters that belong to real text and are allowed where they do their job:
// - the zero-width non-joiner and joiner (U+200C, U+200D) between two visible characters:
//   Persian, Arabic and Indic names and words ("میلاد‌رضا"), emoji sequences;
// - an emoji tag sequence: a black flag followed by tag letters and a cancel tag (the flags of
//   subdivisions, e.g. Scotland 🏴󠁧󠁢󠁳󠁣󠁴󠁿).
// They are taken out before the forbidden-character check; anywhere else they are refused.
const JOINER_IN_WORD = /(?<=[^\s\p{C}])[\u200C\u200D](?=[^\s\p{C}])/gu;
const EMOJI_TAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]{1,30}\u{E007F}/gu;

function withoutAllowedFormatCharacters(value: string): string {
  return value.replace(EMOJI_TAG_SEQUENCE, '\u{1F3F4}').replace(JOINER_IN_WORD, '');
}

const HAS_VISIBLE = /\S/u;
const HAS_LETTER = /\p{L}/u;

/** One line of visible text: a subject, a county name. */
export function isSingleLineText(value: string): boolean {
  return HAS_VISIBLE.test(value) && !FORBIDDEN_IN_LINE.test(withoutAllowedFormatCharacters(value));
}

/** A person's name: one line containing at least one letter. */
export function isPersonName(value: string): boolean {
  return isSingleLineText(value) && HAS_LETTER.test(value);
}

/** A message body: several lines allowed. */
export function isMultiLineText(value: string): boolean {
  return HAS_VISIBLE.test(value) && !FORBIDDEN_IN_TEXT.test(withoutAllowedFormatCharacters(value));
}
