import { describe, expect, it } from 'vitest';
import { fromAcceptLanguage, pickLanguage } from '../http/language.js';
import { displayEmail, isValidEmail, normalizeEmail } from '../validation/email.js';
import { isKnownTag, mergeTags, tagsForState } from '../validation/tags.js';
import { isMultiLineText, isPersonName, isSingleLineText } from '../validation/text.js';

describe('isValidEmail', () => {
  it.each([
    'ann@example.com',
    'a@b.co',
    'ann.lee+news@mail.example.co.uk',
    "o'brien@example.ie",
    'ANN@EXAMPLE.COM',
    'x_y-z@sub-domain.example.org',
    'ann@xn--bcher-kva.de',
    `${'a'.repeat(64)}@example.com`,
  ])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    '',
    'ann',
    'ann@',
    '@example.com',
    'ann@example',
    'ann@@example.com',
    'ann..lee@example.com',
    '.ann@example.com',
    'ann.@example.com',
    'ann@-example.com',
    'ann@example-.com',
    'ann@example..com',
    'ann@example.c',
    'ann@example.123',
    'ann lee@example.com',
    '"ann"@example.com',
    'ann@[127.0.0.1]',
    `${'a'.repeat(65)}@example.com`,
    `ann@${'a'.repeat(64)}.com`,
    `ann@${'a.'.repeat(124)}com`, // 255 characters
    'ann@example.com\r\nBcc: x@evil.com',
    'ann@example.com\n',
    'ann\u0000@example.com',
    '\u0430nn@example.com', // Cyrillic a
    'an\u200Bn@example.com',
    'ann\u202E@example.com',
    'ann\uFF20example.com',
    'ann@ex\u0430mple.com', // Latin and Cyrillic in one label
    'ann@example.c\u03bfm', // a Greek omicron in a Latin TLD
    'ann@m\u00fcn\u200Bchen.de', // a zero-width space in a Unicode domain
    'ann@m\u00fcnchen .de',
    'j\u00f6rg@example.de', // the local part stays ASCII
  ])('refuses %j', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it('normalises to lower case', () => {
    expect(normalizeEmail('Ann.Lee@Example.COM')).toBe('ann.lee@example.com');
  });

  it.each([
    ['user@m\u00fcnchen.de', 'user@xn--mnchen-3ya.de'],
    ['User@M\u00dcNCHEN.DE', 'user@xn--mnchen-3ya.de'],
    ['ann@b\u00fccher.de', 'ann@xn--bcher-kva.de'],
    ['ann@\u4f8b\u3048.jp', 'ann@xn--r8jz45g.jp'],
    ['ann@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444', 'ann@xn--e1afmkfd.xn--p1ai'],
  ])('accepts the internationalised domain of %s, stored as punycode %s and shown in Unicode again', (typed, stored) => {
    expect(isValidEmail(typed)).toBe(true);
    expect(normalizeEmail(typed)).toBe(stored);
    expect(isValidEmail(stored)).toBe(true);
    expect(displayEmail(stored)).toBe(typed.toLowerCase());
  });
});

describe('tags', () => {
  it.each(['ny-newsletter', 'tx-calculator', 'property-tax-updates', 'county-kings', 'county-miami-dade', 'county-st-lucie'])('knows %s', (tag) => {
    expect(isKnownTag(tag)).toBe(true);
  });

  it.each([
    '',
    'newsletter',
    'NY-newsletter',
    // A code that is no state of the rules (NJ is one now, at county level).
    'zz-newsletter',
    'county-',
    'county-Kings',
    'county-k1ngs',
    'county--kings',
    'county-kings-',
    'kings',
    `county-${'a'.repeat(58)}`,
  ])('refuses %j', (tag) => {
    expect(isKnownTag(tag)).toBe(false);
  });

  it("accepts only the subscription's own state tags, deduplicated and sorted", () => {
    expect(tagsForState(['ny-newsletter', 'property-tax-updates', 'ny-newsletter', 'county-kings'], 'NY')).toEqual([
      'county-kings',
      'ny-newsletter',
      'property-tax-updates',
    ]);
    expect(tagsForState(['ny-newsletter', 'tx-calculator'], 'NY')).toBeUndefined();
  });

  it('merges as a sorted union', () => {
    expect(mergeTags(['ny-newsletter', 'b'], ['a', 'ny-newsletter'])).toEqual(['a', 'b', 'ny-newsletter']);
  });

  it('keeps at most 20 tags per subscription: the existing ones, then added ones while there is room', () => {
    const existing = Array.from({ length: 18 }, (_, i) => `county-e${String.fromCharCode(97 + i)}`);
    const merged = mergeTags(existing, ['county-zz', 'county-aa', 'county-ab', 'county-ea']);
    expect(merged).toHaveLength(20);
    expect(merged).toEqual([...existing, 'county-aa', 'county-zz'].sort());
    expect(mergeTags(merged, ['property-tax-updates'])).toEqual(merged);
  });
});

describe('text rules', () => {
  it('single line: visible, no controls, no invisible or bidi characters', () => {
    expect(isSingleLineText('Question about my estimate')).toBe(true);
    expect(isSingleLineText('Miami-Dade')).toBe(true);
    for (const bad of ['', '   ', 'a\r\nb', 'a\nb', 'a\tb', 'a\u0000', 'a\u200Bb', 'a\u202Eb', 'a\u2028b', '\uFEFFa', 'a\uD800']) {
      expect(isSingleLineText(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('keeps the zero-width non-joiner and joiner inside words, and emoji tag sequences (subdivision flags)', () => {
    const persian = '\u0645\u06cc\u0644\u0627\u062f\u200C\u0631\u0636\u0627'; // میلاد‌رضا
    const scotland = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    for (const good of [persian, `Ann ${scotland}`, `${family} Ann`, '\u0915\u094D\u200D\u0937']) {
      expect(isPersonName(good), JSON.stringify(good)).toBe(true);
      expect(isSingleLineText(good), JSON.stringify(good)).toBe(true);
      expect(isMultiLineText(good), JSON.stringify(good)).toBe(true);
    }
    // At an edge, doubled, beside a space, or tag characters outside a flag: refused.
    for (const bad of ['\u200CAnn', 'Ann\u200D', 'A\u200C\u200Cnn', 'Ann \u200C Lee', 'Ann \u{E0067}\u{E007F}', `Ann ${scotland.slice(0, -2)}`]) {
      expect(isPersonName(bad), JSON.stringify(bad)).toBe(false);
      expect(isMultiLineText(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('person names need a letter', () => {
    expect(isPersonName('José María')).toBe(true);
    expect(isPersonName("O'Brien-Smith")).toBe(true);
    expect(isPersonName('李')).toBe(true);
    expect(isPersonName('12345')).toBe(false);
    expect(isPersonName('---')).toBe(false);
  });

  it('multi-line text allows line breaks, tabs and emoji sequences', () => {
    expect(isMultiLineText('Hello,\r\n\tthanks! 👨‍👩‍👧')).toBe(true);
    for (const bad of ['', ' \n ', 'a\u0000b', 'a\u0007b', 'a\u202Eb', 'a\u200Bb', 'a\u2029b', 'a\uDC00b']) {
      expect(isMultiLineText(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('language choice', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['es', 'es'],
    ['es-MX,es;q=0.9,en;q=0.8', 'es'],
    ['en-US,en;q=0.9,es;q=0.8', 'en'],
    ['fr-FR,fr;q=0.9,es;q=0.5,en;q=0.4', 'es'],
    ['en;q=0.2, es;q=0.7', 'es'],
    ['de, *;q=0.5', undefined],
    ['es;q=0', undefined],
    ['es;q=abc', undefined],
  ])('Accept-Language %j -> %j', (header, expected) => {
    expect(fromAcceptLanguage(header)).toBe(expected);
  });

  it('prefers the payload, then the header, then English', () => {
    expect(pickLanguage('es', 'en')).toBe('es');
    expect(pickLanguage('fr', 'es-MX')).toBe('es');
    expect(pickLanguage(undefined, 'de')).toBe('en');
    expect(pickLanguage(42, undefined)).toBe('en');
  });
});
