/** Which citation hosts count as primary sources (engine/build/sources.ts, docs/sources.md). */
import { describe, expect, it } from 'vitest';
import { hostOf, isPrimarySource } from './sources.js';

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
    ])
      expect([href, isPrimarySource(href)]).toEqual([href, true]);
  });

  it('news, blogs, statute mirrors, staging hosts and look-alikes are not', () => {
    for (const href of [
      'https://preview-prod.w.expressnews.com/politics/x',
      'https://ndwebuat.newdayusa.com/learn/x',
      'https://statutes.laws.com/new-york/rpt/article-18/1805',
      'https://law.justia.com/codes/x',
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
});
