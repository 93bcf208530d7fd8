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

/** The borough a New York City county is, by slug ('' for any other county). */
export function boroughOf(slug: string, t: TFunction): string {
  const key = `place.borough_${slug}`;
  const b = t(key, { defaultValue: '' });
  return b === key ? '' : b;
}
