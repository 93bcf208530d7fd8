/**
 * A share link carries the inputs in its address, nothing stored on the server: the
 * county slug, the value and every declared input the visitor gave, under the public
 * names the batch columns use (rules/inputs.yaml `column`), e.g.
 * `/?county=kings&value=800000&class=class1&homestead=true`. Opening it fills the form and
 * shows the same result. Unknown names and values that are not valid are ignored.
 */
import { parseMoney } from '../../../engine/index.js';
import type { InputDecl } from './declarations.js';
import { defaultForm, inputShown, type Edition, type FormValues, type InputValue } from './model.js';

const nameOf = (d: InputDecl) => d.column ?? d.id;

/** The query string for a result's inputs ('' when the form has no county). */
export function shareQuery(v: FormValues, edition: Pick<Edition, 'code' | 'formInputs' | 'county'>): string {
  const county = edition.county(v.county);
  if (!county) return '';
  const q = new URLSearchParams();
  q.set('county', county.slug);
  q.set('value', String(v.homeValue));
  if (county.needsPropertyType && v.propertyType) q.set('class', v.propertyType);
  if (v.year) q.set('year', v.year);
  for (const d of edition.formInputs) {
    if (!inputShown(d, v, county, edition.code)) continue;
    const x = v[d.id];
    if (x === null || x === undefined || x === '' || x === false || x === d.default) continue;
    q.set(nameOf(d), String(x));
  }
  return q.toString();
}

/** The address to share: this page with the inputs. */
export function shareUrl(origin: string, pathname: string, v: FormValues, edition: Pick<Edition, 'code' | 'formInputs' | 'county'>): string {
  const q = shareQuery(v, edition);
  return `${origin}${pathname}${q ? `?${q}` : ''}`;
}

function readInput(d: InputDecl, raw: string): InputValue | undefined {
  if (d.type === 'boolean') return raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : undefined;
  if (d.values) {
    const c = d.values.find((x) => String(x.value) === raw);
    return c ? c.value : undefined;
  }
  if (d.type === 'text' || d.type === 'choice') return raw;
  if (d.type === 'year' || d.type === 'integer') return /^\d{1,6}$/.test(raw) ? Number(raw) : undefined;
  const m = parseMoney(raw);
  return m.ok && m.value >= 0 ? m.value : undefined;
}

/**
 * The form values a shared address carries, or null when it carries no known county and
 * value (then the page opens as usual).
 */
export function readShare(search: string, edition: Edition): FormValues | null {
  const q = new URLSearchParams(search);
  const slug = q.get('county');
  const county = slug ? [...edition.counties, ...edition.places].find((c) => c.slug === slug) : undefined;
  const value = parseMoney(q.get('value') ?? '');
  if (!county || !value.ok || value.value <= 0) return null;
  const v = defaultForm(edition);
  v.county = county.name;
  v.homeValue = value.value;
  const cls = q.get('class');
  if (county.needsPropertyType && cls && Object.keys(edition.classRates(county)).includes(cls)) v.propertyType = cls as FormValues['propertyType'];
  const year = q.get('year');
  if (year && edition.years(county).includes(Number(year))) v.year = year;
  for (const d of edition.formInputs) {
    const raw = q.get(nameOf(d));
    if (raw === null) continue;
    const x = readInput(d, raw);
    if (x !== undefined) v[d.id] = x;
  }
  return v;
}
