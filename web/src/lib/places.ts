/**
 * Place names as visitors say them, in the page's language: "Albany County" is "Condado de
 * Albany" on Spanish pages, and New York City's five counties are offered under their
 * borough names (Kings County is Brooklyn). The rules name counties as the Census does;
 * the words around the name are i18n text (`place.*`).
 */
import type { TFunction } from 'i18next';

const COUNTY = /^(.+) County$/;

/** A county's name in the page's language ("Albany County" → "Condado de Albany"). */
export function countyName(name: string, t: TFunction): string {
  const m = COUNTY.exec(name);
  if (m) return t('place.county', { name: m[1] });
  // New York City as a whole (a calculator choice with its own county page, issue 24).
  return name === 'New York City' ? t('place.nyc') : name;
}

/**
 * `countyName` and the county option's label (`form.countyOption`) for many counties at once
 * (issue 28: the county list of Texas is 254 options, two i18next look-ups each, in one render
 * a phone cannot interrupt): each text is looked up once with markers where the name and the
 * rate go, and filled in per county. Gives exactly `countyName`'s and `t`'s strings.
 */
export function countyLabels(t: TFunction): { name: (name: string) => string; option: (name: string, rate: string) => string } {
  const NAME = '\u0001';
  const RATE = '\u0002';
  const county = t('place.county', { name: NAME });
  const option = t('form.countyOption', { name: NAME, rate: RATE });
  const fill = (text: string, marker: string, value: string) => text.split(marker).join(value);
  const name = (n: string) => {
    const m = COUNTY.exec(n);
    return m ? fill(county, NAME, m[1]!) : countyName(n, t);
  };
  return { name, option: (n, rate) => fill(fill(option, NAME, name(n)), RATE, rate) };
}

/** The borough a New York City county is, by slug ('' for any other county). */
export function boroughOf(slug: string, t: TFunction): string {
  const key = `place.borough_${slug}`;
  const b = t(key, { defaultValue: '' });
  return b === key ? '' : b;
}

export { compareNames } from './names.js';
