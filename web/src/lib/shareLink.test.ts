/** Share links carry the inputs (issue 15): the address round-trips to the same form and result. */
import { describe, expect, it } from 'vitest';
import { Calculator } from '../../../engine/index.js';
import { fullBundle, statePackage } from '../test/edition.js';
import { toBundle } from './stateData.js';
import { calculate, defaultForm, makeEdition, type FormValues } from './model.js';
import { readShare, shareQuery, shareUrl } from './shareLink.js';

const edition = (code: string) => makeEdition(toBundle(statePackage(code)));

describe('share links', () => {
  it('New York City: county slug, value, class, year and the exemptions given, under the batch column names', () => {
    const ny = edition('NY');
    const v: FormValues = { ...defaultForm(ny), county: 'Kings County', homeValue: 800000, propertyType: 'class1', year: '2025', homestead: true };
    expect(shareUrl('http://ny.localhost:8080', '/es', v, ny)).toBe(
      'http://ny.localhost:8080/es?county=kings&value=800000&class=class1&year=2025&homestead=true',
    );
    const back = readShare(shareQuery(v, ny), ny)!;
    expect(back).toEqual(v);
    // The same result as `ptax calc --state NY --county Kings --value 800000 --class class1 --year 2025 --homestead`.
    const r = new Calculator(fullBundle).calculate({ state: 'NY', county: 'Kings', value: 800000, propertyClass: 'class1', year: 2025, homestead: true });
    expect(calculate(ny, back, 'en').annualTax).toBe(r.annualTax);
  });

  it('Texas: over 65 and a veteran level come back as they were', () => {
    const tx = edition('TX');
    const v: FormValues = { ...defaultForm(tx), county: 'Harris County', homeValue: 450000.5, homestead: true, over65: true, veteranDisability: 50 };
    const q = shareQuery(v, tx);
    expect(q).toBe('county=harris&value=450000.5&homestead=true&over65=true&veteranDisability=50');
    expect(readShare(q, tx)).toEqual(v);
  });

  it('ignores addresses without a known county and a value, and values that are not valid', () => {
    const ny = edition('NY');
    expect(readShare('', ny)).toBeNull();
    expect(readShare('?county=atlantis&value=300000', ny)).toBeNull();
    expect(readShare('?county=albany&value=abc', ny)).toBeNull();
    const v = readShare('?county=albany&value=%24300%2C000&homestead=maybe&year=1999&class=class9', ny)!;
    expect(v).toMatchObject({ county: 'Albany County', homeValue: 300000, homestead: false, year: '', propertyType: '' });
  });
});
