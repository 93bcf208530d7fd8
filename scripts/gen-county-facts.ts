/**
 * Generates web/content/county-facts.json (issue 24): for each county of the edition states
 * (rules/<state>/state.yaml `tier: edition`) its
 * population (Census PEP Vintage 2023, July 1 2023) and median real estate taxes paid (ACS
 * 2019–2023, B25103), and the national median of the county effective rates, from the Tax
 * Foundation county table kept in rules/sources (a copy of ../shared/data's
 * us_county_property_taxes_2023.csv, SOURCES.md §5). Context shown beside a result and in the
 * county directory; no tax is calculated from it. The output is committed; running this
 * again on the same data rewrites it byte for byte.
 *
 *   node dist/scripts/gen-county-facts.js [--data rules/sources] [--out web/content/county-facts.json]
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { parse as parseYaml } from 'yaml';

export const FACTS_FILE = 'us_county_property_taxes_2023.csv';

/** The states served by a full edition (`tier: edition` in rules/<state>/state.yaml): the county directory and the context beside a result are theirs. */
export function editionStates(rulesDir = 'rules'): string[] {
  return readdirSync(rulesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(rulesDir, d.name, 'state.yaml')))
    .map((d) => parseYaml(readFileSync(join(rulesDir, d.name, 'state.yaml'), 'utf8')) as { code: string; tier?: string })
    .filter((s) => s.tier === 'edition')
    .map((s) => s.code)
    .sort();
}

export interface CountyFacts {
  sources: { population: { title: string; href: string }; taxes: { title: string; href: string } };
  /** The median of the effective rates (percent) of the counties of the 50 states and DC that have one. */
  national: { medianRate: number; counties: number };
  /** State → county name → [population, median taxes paid in dollars or null (10000 when top-coded), taxes top-coded]. */
  states: Record<string, Record<string, [number | null, number | null, boolean]>>;
}

/** The middle value (the mean of the two middle ones for an even count), in percent to 4 decimals like the source. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  const v = s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
  return Math.round(v * 1e5) / 1e5;
}

export function countyFacts(dataDir: string, editions: readonly string[] = editionStates()): CountyFacts {
  const rows: Record<string, string>[] = parse(readFileSync(join(dataDir, FACTS_FILE), 'utf8'), { columns: true, skip_empty_lines: true });
  const us = rows.filter((r) => r.state_abbr !== 'PR' && r.effective_rate_pct !== '');
  const states: CountyFacts['states'] = {};
  for (const r of rows) {
    if (!editions.includes(r.state_abbr!)) continue;
    const num = (x: string | undefined) => (x ? Number(x) : null);
    // A top-coded 10001 means "$10,000 or more" (SOURCES.md §5): kept as 10000 with the flag, shown as "$10,000 or more".
    const top = r.taxes_topcoded === 'true';
    (states[r.state_abbr!] ??= {})[r.county_name!] = [num(r.population_2023), top ? 10000 : num(r.median_real_estate_taxes_paid_usd), top];
  }
  return {
    sources: {
      population: {
        title: 'US Census Bureau, Population Estimates Program, Vintage 2023: county population on July 1, 2023',
        href: 'https://www.census.gov/data/tables/time-series/demo/popest/2020s-counties-total.html',
      },
      taxes: {
        title:
          'US Census Bureau, ACS 2019–2023 five-year table B25103, median real estate taxes paid, by county (the rates as compiled by the Tax Foundation, Property Taxes by State and County 2023)',
        href: 'https://data.census.gov/table/ACSDT5Y2023.B25103',
      },
    },
    national: { medianRate: median(us.map((r) => Number(r.effective_rate_pct))), counties: us.length },
    states,
  };
}

function main(argv: string[]): void {
  const arg = (name: string, def: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1]! : def;
  };
  const out = resolve(arg('--out', 'web/content/county-facts.json'));
  const facts = countyFacts(resolve(arg('--data', 'rules/sources')));
  writeFileSync(out, JSON.stringify(facts) + '\n');
  console.log(
    `county facts: national median rate ${facts.national.medianRate}% of ${facts.national.counties} counties; ${Object.entries(facts.states)
      .map(([s, c]) => `${s} ${Object.keys(c).length}`)
      .join(', ')} -> ${out}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
