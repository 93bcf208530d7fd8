/**
 * A share link carries the inputs in its address, nothing stored on the server: the
 * county slug, the value and every declared input the visitor gave, under the public
 * names the batch columns use (rules/inputs.yaml `column`), e.g.
 * `/?county=kings&value=800000&class=class1&homestead=true`. Opening it fills the form and
 * shows the same result (an owner's figure in it opens the form as "owned a while"). Unknown names and values that are not valid are ignored.
 */
import { inputsFromQuery } from '../../../engine/index.js';
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

/**
 * The form values a shared address carries, or null when it carries no known county and
 * value (then the page opens as usual). The address is read by engine/core/share.ts, as the
 * site server reads it for link previews.
 */
export function readShare(search: string, edition: Edition): FormValues | null {
  const r = inputsFromQuery(new URLSearchParams(search), edition.code);
  if (!r) return null;
  const county = [...edition.counties, ...edition.places].find((c) => c.slug === r.county);
  if (!county) return null;
  const v = defaultForm(edition);
  v.county = county.name;
  v.homeValue = r.inputs.value as number;
  const cls = r.inputs.propertyClass;
  if (county.needsPropertyType && typeof cls === 'string' && Object.keys(edition.classRates(county)).includes(cls))
    v.propertyType = cls as FormValues['propertyType'];
  const year = r.inputs.year;
  if (typeof year === 'number' && edition.years(county).includes(year)) v.year = String(year);
  for (const d of edition.formInputs) if (r.inputs[d.id] !== undefined) v[d.id] = r.inputs[d.id] as InputValue;
  // An owner's figure in the address (last year's value, the purchase year or price) answers "owned a while".
  if (edition.formInputs.some((d) => d.owner_only && r.inputs[d.id] !== undefined)) v.ownership = 'owned';
  return v;
}
