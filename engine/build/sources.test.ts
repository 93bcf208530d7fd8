/** Which citation hosts count as primary sources (engine/build/sources.ts, docs/sources.md). */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { listYaml } from './load.js';
import { hostOf, isPrimarySource, OFFICIAL_HOSTS } from './sources.js';

describe('primary sources', () => {
  it('government domains: .gov, a state .us domain, the named official offices (with or without www.)', () => {
    for (const href of [
      'https://statutes.capitol.texas.gov/Docs/TX/htm/TX.11.htm#11.13',
      'https://www.tax.ny.gov/pit/property/star/types.htm',
      'https://data.census.gov/table/ACSDT5Y2023.B25103',
      'http://www.leg.state.fl.us/statutes/index.cfm',
      'http://www.cpa.state.tx.us/taxinfo/proptax/tc06/ch33a.htm',
      'https://bcpa.net/senior_instructions.asp',
      'http://www.asrclkrec.com/Assessor/AssessmentandPropertyTax/Proposition13.aspx',
      'http://www.nyc.gov/site/finance/property/property-determining-your-assessed-value.page',
      'http://www1.nyc.gov/site/finance/benefits/landlords-veterans.page',
      'https://tax.ny.gov/pubs_and_bulls/orpts/legal_opinions/v12/14.htm',
      'https://www.nysenate.gov/legislation/laws/RPT/1805',
      'https://codelibrary.amlegal.com/codes/newyorkcity/latest/NYCadmin/0-0-0-1',
    ])
      expect([href, isPrimarySource(href)]).toEqual([href, true]);
  });

  it('news, blogs, statute mirrors, staging hosts and look-alikes are not', () => {
    for (const href of [
      'https://preview-prod.w.expressnews.com/politics/x',
      'https://ndwebuat.newdayusa.com/learn/x',
      'https://statutes.laws.com/new-york/rpt/article-18/1805',
      'https://law.justia.com/codes/x',
      'http://law.justia.com/newyork/codes/new-york-city-administrative-code-new/adc011-245.6_11-245.6.html',
      'https://mgnyconsulting.com/assesment-caps-summary/',
      'https://statutes.laws.com/new-york/rpt/article-4/title-2/458-b',
      'https://taxfoundation.org/data/all/state/property-taxes-by-state-county/',
      'https://gov.example.com/x',
      'https://notagov.com/x',
      'https://example.us/x',
      'rules/README.md#product-conventions',
      'ftp://tax.ny.gov/x',
    ])
      expect([href, isPrimarySource(href)]).toEqual([href, false]);
    expect(hostOf('not a url')).toBeUndefined();
  });

  it('every href of the rule files is a primary source, also where validate does not look (the state profiles: the Texas vote panel)', () => {
    const hrefs: string[] = [];
    const walk = (x: unknown): void => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === 'object')
        for (const [k, v] of Object.entries(x)) {
          if (k === 'href' && typeof v === 'string') hrefs.push(v);
          else walk(v);
        }
    };
    const files = listYaml('rules');
    for (const f of files) walk(parse(readFileSync(f, 'utf8')));
    expect(hrefs.length).toBeGreaterThan(50);
    expect(hrefs).toContain('https://capitol.texas.gov/tlodocs/89R/billtext/html/SJ00002I.htm');
    expect(hrefs.filter((h) => !isPrimarySource(h))).toEqual([]);
  });

  it('every host listed outside the government domains says which office or publisher it is', () => {
    for (const [host, office] of Object.entries(OFFICIAL_HOSTS)) {
      expect([host, host === host.toLowerCase() && !host.startsWith('www.')]).toEqual([host, true]);
      expect([host, office.length > 10]).toEqual([host, true]);
    }
  });
});
