/**
 * Generates rules/<state>/counties.yaml from the official tables kept in rules/sources
 * (copies of ../shared/data's; rules reference §1): each county's rate is the state's official
 * nominal rate where one is published (California: the BOE average rate, 2024-25; Florida:
 * the DOR total millage, 2025; Texas: county + principal school district + principal city,
 * 2025), with its parts by levy, else the Census effective rate; the Census effective rate
 * is kept beside it as the county's typical owner's rate. The output is committed; running
 * this again on the same data rewrites it byte for byte (a test checks that).
 *
 * Every other state, DC and Puerto Rico (the national table, SOURCES.md §5) gets the same
 * counties file with the Census effective rate alone, each county's population, and the
 * state's and the nation's median county rates for comparison, plus a short state file
 * (tier county, the shared program rules/shared/county-level.yaml), generated as long as it
 * keeps its second line's generated mark.
 *
 *   node dist/scripts/gen-counties.js [--data rules/sources] [--out rules] [--check] [STATE…]   (default: every state)
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { slugOf } from '../engine/node.js';

/** The engine's slug rule, which the county files' slugs must follow (engine/core/counties.ts). */
export { slugOf };

export const SOURCE_FILE = 'county_effective_property_tax_rates_ca_fl_ny_tx.csv';
/** The official nominal-rate tables, by state (../shared/data/SOURCES.md §6–§8). */
export const NOMINAL_FILES: Record<string, string> = {
  CA: 'nominal_rates_ca_2024.csv',
  FL: 'nominal_rates_fl_2025.csv',
  TX: 'nominal_rates_tx_2025.csv',
};
/** Where the table is kept in the repository (from its root). */
export const DATA_DIR = 'rules/sources';
/** The ACS 2019–2023 five-year table is labelled 2023 by the Tax Foundation. */
const EFFECTIVE = '2023-01-01';
const VERIFIED = '2026-11-21';
/** When every county of the nominal tables was compared with the official tables themselves (docs/verification.md, rows ca/fl/tx.counties). */
const NOMINAL_VERIFIED = '2026-11-26';
const NYC_NOTE = 'NYC borough';
/** The state editions: their counties come from the table of the four states and their nominal tables. */
export const EDITIONS = ['NY', 'TX', 'CA', 'FL'];
/**
 * Every other state, DC and Puerto Rico: their counties come from the national table
 * (../shared/data/SOURCES.md §5), at county level (tier county, the shared program
 * `county_level`).
 */
export const NATIONAL_FILE = 'us_county_property_taxes_2023.csv';
/**
 * Nobody has compared the national table's rows with the Census tables yet (docs/sources.md,
 * "Entries that still need a person's check"): its files keep the date of the unchecked
 * entries, so `ptax validate --stale 2026-11-22` lists them. Checked only within the copy:
 * every rate is its taxes ÷ value (3,208 rows, 0 exceptions, 2026-11-27).
 */
const NATIONAL_VERIFIED = VERIFIED;

export interface CountyRow {
  state: string;
  name: string;
  fips: string;
  rate: number | null;
  /** Median value of owner-occupied homes (ACS B25077), in dollars; null where suppressed. */
  medianValue: number | null;
  topCoded: boolean;
  nyc: boolean;
}

/** A county's official nominal rate (percent of taxable value) and its parts by levy, in percent. */
export interface NominalRow {
  state: string;
  fips: string;
  rate: string;
  parts: { school: number; county: number; city: number; special: number };
  /** Texas: the taxing units whose rates the parts are (the principal school district and city). */
  units?: { school: string; city: string | null };
}

/** The year each state's nominal table is for: its first day is the rate's effective date. */
const NOMINAL_EFFECTIVE: Record<string, string> = { CA: '2024-01-01', FL: '2025-01-01', TX: '2025-01-01' };

/** A number of percent, at most 6 decimals, as text without trailing zeros. */
const pct = (x: number): number => Number(x.toFixed(6));
const num0 = (s: string | undefined): number => (s ? Number(s) : 0);

export function readNominalRows(dataDir: string): NominalRow[] {
  const out: NominalRow[] = [];
  for (const [state, file] of Object.entries(NOMINAL_FILES)) {
    const rows: Record<string, string>[] = parse(readFileSync(join(dataDir, file), 'utf8'), { columns: true, skip_empty_lines: true });
    for (const r of rows) {
      const fips = r['county_fips']!;
      const rate = r['rate_pct']!;
      if (!fips || !rate) throw new Error(`${file}: missing county_fips or rate_pct`);
      if (state === 'CA') {
        // The BOE's levies by kind (Table 14): each part is the rate times its levy's share.
        const levies = ['school_levy_usd', 'county_levy_usd', 'city_levy_usd', 'other_districts_levy_usd'].map((k) => num0(r[k]));
        const total = levies.reduce((a, b) => a + b, 0);
        const [school, county, city, special] = levies.map((l) => pct((Number(rate) * l) / total)) as [number, number, number, number];
        out.push({ state, fips, rate, parts: { school, county, city, special } });
      } else if (state === 'FL') {
        // DOR millage (mills ÷ 10 = percent): school board operating + debt service; county
        // government, its dependent districts and MSTUs; municipal; independent special districts.
        const mills = (...ks: string[]) => pct(ks.reduce((a, k) => a + num0(r[k]), 0) / 10);
        out.push({
          state,
          fips,
          rate,
          parts: {
            school: mills('school_board_operating_mills', 'school_board_debt_service_mills'),
            county: mills(
              'cw_county_gov_operating_mills',
              'cw_county_gov_debt_service_mills',
              'cw_county_dependent_special_district_mills',
              'lcw_county_gov_operating_mills',
              'lcw_county_dependent_special_district_mills',
              'lcw_mstu_mills',
            ),
            city: mills('lcw_municipal_mills'),
            special: mills('cw_independent_special_districts_mills', 'lcw_independent_special_districts_mills'),
          },
        });
      } else {
        const city = r['principal_city_name'] ? r['principal_city_name'].replace(/\s*\*$/, '') : null;
        out.push({
          state,
          fips,
          rate,
          parts: { school: num0(r['principal_isd_rate_pct']), county: num0(r['county_rate_pct']), city: num0(r['principal_city_rate_pct']), special: 0 },
          units: { school: r['principal_isd_name']!, city },
        });
      }
    }
  }
  return out;
}

export function readCountyRows(dataDir: string): CountyRow[] {
  const rows: Record<string, string>[] = parse(readFileSync(join(dataDir, SOURCE_FILE), 'utf8'), { columns: true, skip_empty_lines: true });
  return rows.map((r) => ({
    state: req(r, 'state_abbr'),
    name: req(r, 'county_name'),
    fips: req(r, 'county_fips'),
    rate: r['effective_rate_pct'] ? Number(r['effective_rate_pct']) : null,
    medianValue: r['median_home_value_usd'] ? Number(r['median_home_value_usd']) : null,
    topCoded: r['taxes_topcoded'] === 'true',
    nyc: (r['note'] ?? '').includes(NYC_NOTE),
  }));
}

function req(r: Record<string, string>, key: string): string {
  const v = r[key];
  if (v === undefined || v === '') throw new Error(`${SOURCE_FILE}: missing ${key}`);
  return v;
}

const q = (s: string) => JSON.stringify(s);

/** The census table of the median home values (cited for the rates and for the median values), as a YAML list item. */
const B25077 = [
  '- title: "US Census Bureau, ACS 2019–2023 five-year table B25077, median value of owner-occupied homes, by county"',
  '  href: https://data.census.gov/table/ACSDT5Y2023.B25077',
];

/** The median of the counties' median home values (the lower middle one of an even count, so it is one county's figure). */
export function middleOfMedians(rows: CountyRow[]): number | null {
  const values = rows.map((r) => r.medianValue).filter((v): v is number => v !== null);
  if (!values.length) return null;
  values.sort((a, b) => a - b);
  return values[Math.floor((values.length - 1) / 2)]!;
}

/** Each state's nominal source: what the rate is, its citation, and what each part sums. */
const NOMINAL: Record<string, { description: string[]; reference: string[]; parts: Record<'school' | 'county' | 'city' | 'special', string> }> = {
  CA: {
    description: [
      "  Each county's rate is the State Board of Equalization's average tax rate for the roll",
      '  year 2024-25: the general property tax levies (the 1% Proposition 13 base plus the',
      '  voter-approved rates) divided by the net taxable assessed value, a percent of assessed',
      "  value before the homeowners' exemption. It is an average over the county's tax rate",
      '  areas; fixed charges and Mello-Roos special taxes are not in it.',
    ],
    reference: [
      '- title: "California State Board of Equalization, Property Tax Allocations (Annual Report Tables 14 and 15), data set PropTaxGenPropTaxLevies, roll year 2024-25: average tax rate and levies by county"',
      '  href: https://www.boe.ca.gov/dataportal/dataset.htm?url=PropTaxGenPropTaxLevies',
    ],
    parts: {
      school: 'the rate times school_levy_usd over the four levies (Table 14)',
      county: 'the rate times county_levy_usd over the four levies',
      city: 'the rate times city_levy_usd over the four levies',
      special: 'the rate times other_districts_levy_usd over the four levies',
    },
  },
  FL: {
    description: [
      "  Each county's rate is the Department of Revenue's 2025 total millage divided by ten",
      '  (mills to percent): the average over the county of every levy (county, school board,',
      '  special districts, MSTUs, cities), a percent of taxable value. Partial-area levies',
      '  are spread over the whole county; non-ad-valorem assessments are not in it.',
    ],
    reference: [
      '- title: "Florida Department of Revenue, Property Tax Oversight, Millage and Taxes Levied Report, sheet Millage Rates by County, 2025 (data extract November 2025)"',
      '  href: https://floridarevenue.com/property/Documents/millage_taxes_levied.xlsx',
    ],
    parts: {
      school: '(school_board_operating_mills + school_board_debt_service_mills) / 10, on the school taxable value',
      county:
        '(cw_county_gov_operating_mills + cw_county_gov_debt_service_mills + cw_county_dependent_special_district_mills + lcw_county_gov_operating_mills + lcw_county_dependent_special_district_mills + lcw_mstu_mills) / 10',
      city: 'lcw_municipal_mills / 10',
      special: '(cw_independent_special_districts_mills + lcw_independent_special_districts_mills) / 10',
    },
  },
  TX: {
    description: [
      "  Each county's rate is the sum of three 2025 rates published by the Comptroller: the",
      "  county's total rate, the total rate of its principal school district and that of its",
      '  principal city (largest taxable value in the county), a percent of taxable value.',
      '  Special districts (hospital, college, MUD, ESD and others) are not in it.',
    ],
    reference: [
      '- title: "Texas Comptroller of Public Accounts, Property Tax Assistance Division, Tax Rates and Levies 2025: county, school district and city rates (Detail sheets, version Working of 01/28/2026)"',
      '  href: https://comptroller.texas.gov/taxes/property-tax/rates/index.php',
    ],
    parts: {
      school: 'principal_isd_rate_pct (the principal school district, units.school), on the school taxable value',
      county: 'county_rate_pct (TOTAL COUNTY TAX RATE)',
      city: 'principal_city_rate_pct (the principal city, units.city; 0 where the county has none)',
      special: '0: special districts are not in the data',
    },
  },
};

/** The Census effective rate's citation, as a YAML list (the typical owner's rate, and New York's county rate). */
const B25103 = [
  '- title: "US Census Bureau, ACS 2019–2023 five-year table B25103, median real estate taxes paid, by county (the rates as compiled by the Tax Foundation, Property Taxes by State and County 2023)"',
  '  href: https://data.census.gov/table/ACSDT5Y2023.B25103',
];

export function countiesYaml(state: string, rows: CountyRow[], nominal: NominalRow[] = []): string {
  const mine = rows.filter((r) => r.state === state);
  const official = NOMINAL[state];
  const byFips = new Map(nominal.filter((n) => n.state === state).map((n) => [n.fips, n]));
  if (official && byFips.size !== mine.length) throw new Error(`${state}: ${byFips.size} nominal rows for ${mine.length} counties`);
  const indent = (ls: string[], n: number) => ls.map((l) => ' '.repeat(n) + l);
  const lines = [
    '# yaml-language-server: $schema=../../schemas/counties.schema.json',
    `# Generated by scripts/gen-counties.ts from shared/data/${official ? `${NOMINAL_FILES[state]} and ` : ''}${SOURCE_FILE}; do not edit by hand.`,
    'kind: counties',
    `id: ${state.toLowerCase()}.counties`,
    `state: ${state}`,
    'description: >-',
    ...(official
      ? official.description
      : [
          "  Each county's rate is the Census effective rate: median real estate taxes paid divided",
          '  by the median value of owner-occupied homes (ACS 2019–2023 five-year estimates), as a',
          '  percent of market value. No official nominal rate by county is in the data: this rate',
          '  already reflects the typical exemptions, so none that it averages is subtracted from it.',
        ]),
    'label: {en: County rate, es: Tasa del condado}',
    'unit: percent',
    'reference:',
    ...indent(official ? official.reference : [...B25103, ...B25077], 2),
    `last_verified: ${official ? NOMINAL_VERIFIED : VERIFIED}`,
  ];
  if (official)
    lines.push(
      'parts:',
      '  label: {en: County rate by levy, es: Tasa del condado por gravamen}',
      '  description: >-',
      "    The county rate's parts by levy, in percent of the taxable value of each levy; they",
      '    add up to the rate. Each part is computed from the columns of the source table below.',
      '  reference:',
      ...indent(official.reference, 4),
      '  columns:',
      ...(['school', 'county', 'city', 'special'] as const).map((k) => `    ${k}: ${q(official.parts[k])}`),
    );
  lines.push(
    'typical_rate:',
    "  label: {en: Typical owner's rate, es: Tasa típica de los propietarios}",
    '  description: >-',
    '    Median real estate taxes paid divided by the median value of owner-occupied homes',
    '    (ACS 2019–2023 five-year estimates), as a percent of market value: what a typical',
    '    owner pays, after the exemptions and caps owners have. A comparison, never the rate',
    '    an estimate subtracts exemptions from.',
    '  reference:',
    ...indent([...B25103, ...B25077], 4),
  );
  const middle = middleOfMedians(mine);
  if (middle !== null)
    lines.push(
      'median_value:',
      '  label: {en: Median home value, es: Valor mediano de la vivienda}',
      '  description: >-',
      "    Median value of owner-occupied homes (ACS 2019–2023 five-year estimates), each county's",
      "    as `median_value` below. `state` is the middle of the state's county medians (the",
      '    lower middle one of an even count): a typical county, not a statewide median of homes,',
      '    which this data set does not give.',
      '  reference:',
      ...B25077.map((l) => `    ${l}`),
      `  state: ${middle}`,
    );
  lines.push('counties:');
  for (const r of mine) {
    const n = byFips.get(r.fips);
    if (official && !n) throw new Error(`${state}: no nominal rate for ${r.name}`);
    const hasRate = n !== undefined || r.rate !== null;
    // A county without any rate is calculated with the state's average (a rule parameter),
    // flagged as estimated (rules reference §1).
    const flags = [r.nyc ? 'nycClass' : '', r.topCoded ? 'topCoded' : '', hasRate ? '' : 'noRate', hasRate ? '' : 'estimated'].filter(Boolean);
    lines.push(`  - name: ${q(r.name)}`);
    lines.push(`    slug: ${slugOf(r.name)}`);
    lines.push(`    fips: ${q(r.fips)}`);
    if (n) {
      const p = n.parts;
      const units = n.units ? `, units: {school: ${q(n.units.school)}${n.units.city ? `, city: ${q(n.units.city)}` : ''}}` : '';
      lines.push(
        `    rates: [{effective: ${NOMINAL_EFFECTIVE[state]}, value: ${n.rate}, parts: {school: ${p.school}, county: ${p.county}, city: ${p.city}, special: ${p.special}}${units}}]`,
      );
    } else if (r.rate !== null) lines.push(`    rates: [{effective: ${EFFECTIVE}, value: ${r.rate.toFixed(4)}}]`);
    else lines.push('    rates: []');
    if (r.rate !== null) lines.push(`    typical_rate: {effective: ${EFFECTIVE}, value: ${r.rate.toFixed(4)}}`);
    if (r.medianValue !== null) lines.push(`    median_value: ${r.medianValue}`);
    if (flags.length) lines.push(`    flags: [${flags.join(', ')}]`);
  }
  return lines.join('\n') + '\n';
}

function main(argv: string[]): void {
  let dataDir = DATA_DIR;
  let outDir = 'rules';
  let check = false;
  const states: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--data') dataDir = argv[++i] ?? dataDir;
    else if (a === '--out') outDir = argv[++i] ?? outDir;
    else if (a === '--check') check = true;
    else states.push(a.toUpperCase());
  }
  const rows = readCountyRows(resolve(dataDir));
  const nominal = readNominalRows(resolve(dataDir));
  const us = readUsRows(resolve(dataDir));
  const all = [...EDITIONS, ...countyStates(us)];
  let stale = 0;
  const outputs: Array<[string, string]> = [];
  for (const state of states.length ? states : all) {
    if (EDITIONS.includes(state)) outputs.push([join(outDir, state.toLowerCase(), 'counties.yaml'), countiesYaml(state, rows, nominal)]);
    else if (all.includes(state)) {
      outputs.push([join(outDir, state.toLowerCase(), 'counties.yaml'), countyLevelYaml(state, us)]);
      // The state file is generated until someone takes it over (removes the generated mark).
      const stateFile = join(outDir, state.toLowerCase(), 'state.yaml');
      if (generatedOrMissing(stateFile)) outputs.push([stateFile, countyStateYaml(state, us)]);
    } else throw new Error(`${state}: not in ${NATIONAL_FILE}`);
  }
  for (const [file, text] of outputs) {
    if (check) {
      let old = '';
      try {
        old = readFileSync(file, 'utf8');
      } catch {
        /* missing counts as stale */
      }
      if (old !== text) {
        console.error(`${file}: out of date; run npm run gen:counties`);
        stale++;
      }
    } else {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      console.log(`wrote ${file}`);
    }
  }
  if (stale) process.exit(1);
}

export interface UsRow {
  state: string;
  stateName: string;
  name: string;
  /** Empty for Puerto Rico's municipios (the Census county file has none). */
  fips: string;
  medianValue: number | null;
  taxes: number | null;
  /** The rate as printed in the source (percent), or null where the source has none. */
  rate: string | null;
  topCoded: boolean;
  population: number | null;
}

/** The national table (SOURCES.md §5), every row. */
export function readUsRows(dataDir: string): UsRow[] {
  const rows: Record<string, string>[] = parse(readFileSync(join(dataDir, NATIONAL_FILE), 'utf8'), { columns: true, skip_empty_lines: true });
  const int = (s: string | undefined) => (s ? Number(s) : null);
  return rows.map((r) => {
    const rate = r['effective_rate_pct'] || null;
    if (rate !== null && !/^\d+(\.\d+)?$/.test(rate)) throw new Error(`${NATIONAL_FILE}: bad rate ${rate}`);
    return {
      state: r['state_abbr']!,
      stateName: r['state_name']!,
      name: r['county_name']!,
      fips: r['county_fips'] ?? '',
      medianValue: int(r['median_home_value_usd']),
      taxes: int(r['median_real_estate_taxes_paid_usd']),
      rate,
      topCoded: r['taxes_topcoded'] === 'true',
      population: int(r['population_2023']),
    };
  });
}

/** The states, DC and Puerto Rico the national table serves at county level (every code but the editions'), sorted. */
export function countyStates(us: UsRow[]): string[] {
  return [...new Set(us.map((r) => r.state))].filter((s) => !EDITIONS.includes(s)).sort();
}

/** Spanish names of the states whose name is not the same in Spanish (the rest keep their English name). */
export const SPANISH_NAMES: Record<string, string> = {
  DC: 'Distrito de Columbia',
  HI: 'Hawái',
  LA: 'Luisiana',
  MI: 'Míchigan',
  MS: 'Misisipi',
  MO: 'Misuri',
  NH: 'Nuevo Hampshire',
  NJ: 'Nueva Jersey',
  NM: 'Nuevo México',
  NC: 'Carolina del Norte',
  ND: 'Dakota del Norte',
  OR: 'Oregón',
  PA: 'Pensilvania',
  SC: 'Carolina del Sur',
  SD: 'Dakota del Sur',
  WV: 'Virginia Occidental',
};

/** The lower middle of a list of numbers (the middle one of an odd count): one row's own figure. */
export function lowerMiddle<T>(items: T[], key: (x: T) => number): T | undefined {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

const stateName = (state: string, us: UsRow[]): string => {
  const r = us.find((x) => x.state === state);
  if (!r) throw new Error(`${state}: not in ${NATIONAL_FILE}`);
  return r.stateName;
};

/** The Census county population estimates (Vintage 2023), as a YAML list item. */
const POPEST = [
  '- title: "US Census Bureau, Population Estimates Program, Vintage 2023: annual estimates of the resident population for counties, July 1, 2023 (co-est2023-alldata, POPESTIMATE2023)"',
  '  href: https://www.census.gov/data/tables/time-series/demo/popest/2020s-counties-total.html',
];

/** The rows the national median is taken over: the 50 states and DC (Puerto Rico is not in the national figure). */
const nationalRows = (us: UsRow[]) => us.filter((r) => r.state !== 'PR' && r.rate !== null);

/** rules/<st>/counties.yaml of a county-level state, from the national table. */
export function countyLevelYaml(state: string, us: UsRow[]): string {
  const mine = us.filter((r) => r.state === state);
  if (!mine.length) throw new Error(`${state}: not in ${NATIONAL_FILE}`);
  const name = stateName(state, us);
  const withRate = mine.filter((r) => r.rate !== null);
  const stateMedian = lowerMiddle(withRate, (r) => Number(r.rate))!;
  const nationalMedian = lowerMiddle(nationalRows(us), (r) => Number(r.rate))!;
  const values = mine.filter((r) => r.medianValue !== null);
  const valueMiddle = lowerMiddle(values, (r) => r.medianValue!);
  const hasPopulation = mine.every((r) => r.population !== null);
  const population = mine.reduce((a, r) => a + (r.population ?? 0), 0);
  const lines = [
    '# yaml-language-server: $schema=../../schemas/counties.schema.json',
    `# Generated by scripts/gen-counties.ts from shared/data/${NATIONAL_FILE}; do not edit by hand.`,
    'kind: counties',
    `id: ${state.toLowerCase()}.counties`,
    `state: ${state}`,
    'description: >-',
    `  ${name}, every county${state === 'PR' ? ' (municipio)' : ''} in the national table. Each county's rate is the Census`,
    '  effective rate: the median real estate taxes paid divided by the median value of',
    '  owner-occupied homes (ACS 2019–2023 five-year estimates, as compiled by the Tax',
    "  Foundation), a percent of market value. It is what the county's typical owner pays, not",
    "  a statutory rate: the state's exemptions, credits and caps are already in it for the",
    "  typical owner and none is modelled. A taxes figure of 10,001 is the survey's top code",
    '  ($10,000 or more): the rate of such a county (flag topCoded) is understated. A taxes',
    "  figure of 199 is probably the survey's floor (less than $200, not confirmed): the rate",
    '  of such a county (flag taxFloor) may be overstated. A county the table gives no rate',
    '  (flag noRate) has no estimate.',
    ...(state === 'PR'
      ? [
          "  Puerto Rico's 78 municipios have no FIPS code and no population in the data (the",
          '  Census county estimates cover the 50 states and DC only): neither is written, and',
          '  the median value and median taxes are the figures to show in its place.',
        ]
      : []),
    'label: {en: County rate, es: Tasa del condado}',
    'unit: percent',
    'reference:',
    ...[...B25103, ...B25077].map((l) => `  ${l}`),
    `last_verified: ${NATIONAL_VERIFIED}`,
    'typical_rate:',
    "  label: {en: Typical owner's rate, es: Tasa típica de los propietarios}",
    '  description: >-',
    '    The same Census effective rate, the rate used. `state_median` is the middle of the',
    `    county rates of ${name} (the lower middle one of an even count, so it is one county's`,
    `    rate: ${stateMedian.name}); \`national_median\` the middle of the county rates of the 50`,
    `    states and DC (${nationalMedian.name}, ${nationalMedian.state}), over the counties with a rate. Medians of county`,
    '    rates, not of homes: a comparison.',
    '  reference:',
    ...[...B25103, ...B25077].map((l) => `    ${l}`),
    `  state_median: ${stateMedian.rate}`,
    `  national_median: ${nationalMedian.rate}`,
  ];
  if (valueMiddle)
    lines.push(
      'median_value:',
      '  label: {en: Median home value, es: Valor mediano de la vivienda}',
      '  description: >-',
      "    Median value of owner-occupied homes (ACS 2019–2023 five-year estimates), each county's",
      "    as `median_value` below. `state` is the middle of the state's county medians (the",
      '    lower middle one of an even count): a typical county, not a statewide median of homes,',
      '    which this data set does not give.',
      '  reference:',
      ...B25077.map((l) => `    ${l}`),
      `  state: ${valueMiddle.medianValue}`,
    );
  if (hasPopulation)
    lines.push(
      'population:',
      '  label: {en: Population, es: Población}',
      '  description: >-',
      "    Resident population on July 1, 2023 (Census Vintage 2023 estimates), each county's as",
      "    `population` below; `state` is their sum, the state's own estimate.",
      '  reference:',
      ...POPEST.map((l) => `    ${l}`),
      `  state: ${population}`,
    );
  lines.push('counties:');
  const slugs = new Set<string>();
  for (const r of mine) {
    const slug = slugOf(r.name);
    if (slugs.has(slug)) throw new Error(`${state}: two counties with the slug ${slug}`);
    slugs.add(slug);
    const flags = [r.topCoded ? 'topCoded' : '', r.taxes === 199 ? 'taxFloor' : '', r.rate === null ? 'noRate' : ''].filter(Boolean);
    lines.push(`  - name: ${q(r.name)}`, `    slug: ${slug}`);
    if (r.fips) lines.push(`    fips: ${q(r.fips)}`);
    lines.push(r.rate !== null ? `    rates: [{effective: ${EFFECTIVE}, value: ${r.rate}}]` : '    rates: []');
    if (r.rate !== null) lines.push(`    typical_rate: {effective: ${EFFECTIVE}, value: ${r.rate}}`);
    if (r.medianValue !== null) lines.push(`    median_value: ${r.medianValue}`);
    if (r.taxes !== null) lines.push(`    median_taxes: ${r.taxes}`);
    if (r.population !== null) lines.push(`    population: ${r.population}`);
    if (flags.length) lines.push(`    flags: [${flags.join(', ')}]`);
  }
  return lines.join('\n') + '\n';
}

/** The second line of a generated state file: while it is there, the generator rewrites the file. */
export const GENERATED_STATE_MARK = '# Generated by scripts/gen-counties.ts';

function generatedOrMissing(file: string): boolean {
  try {
    return readFileSync(file, 'utf8').split('\n')[1]!.startsWith(GENERATED_STATE_MARK);
  } catch {
    return true;
  }
}

/** rules/<st>/state.yaml of a county-level state: its names, slug, tier, counties file and the shared program. */
export function countyStateYaml(state: string, us: UsRow[]): string {
  const en = stateName(state, us);
  const es = SPANISH_NAMES[state] ?? en;
  const unit = state === 'PR' ? 'municipio' : 'county';
  return [
    '# yaml-language-server: $schema=../../schemas/state.schema.json',
    `${GENERATED_STATE_MARK} (state file of a county-level state); remove this line to edit it by hand.`,
    'kind: state',
    `code: ${state}`,
    `name: {en: ${q(en)}, es: ${q(es)}}`,
    `slug: ${slugOf(en)}`,
    'tier: county',
    'description: >-',
    `  ${en} at county level: every ${unit} is calculated by the shared county-level program`,
    "  (rules/shared/county-level.yaml), home value times the county's Census effective rate",
    "  from the national table; the state's own exemptions and rules are not modelled.",
    'phrases:',
    `  people: {en: ${q(`homeowners in ${en}`)}, es: ${q(`propietarios en ${es}`)}}`,
    `counties: ${state.toLowerCase()}.counties`,
    'programs:',
    '  - program: county_level',
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
