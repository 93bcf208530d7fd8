/**
 * BatchCalculator (the batch path's engine side) on a few rows whose cells are worked out
 * by hand, through both ways a row is evaluated (the generated program, and the
 * interpreter when no generated module matches), fresh and from the place cache:
 *
 * - Travis County, TX, 400,000 (nominal_rates_tx_2025.csv: county 0.375845% + Austin ISD
 *   0.9252% + Austin 0.574017% = 1.875062%): tax 400,000 × 1.875062% = 7,500.248 → 7,500.25;
 *   a month 625.02; school 3,700.80, county 1,503.38, city 2,296.068 → 2,296.07, special 0.
 *   Potential savings of a homestead claim (2025: school exemption 140,000, county 3,000):
 *   140,000 × 0.9252% + 3,000 × 0.375845% = 1,295.28 + 11.28 = 1,306.56 (2024: school
 *   100,000: 925.20 + 11.28 = 936.48). Every Texas row has the units note first.
 * - The same with a county rate of 1.5% given in the row: 6,000; 500; each part scaled by
 *   1.5 / 1.875062: school 2,960.54, county 1,202.66, city 1,836.79; savings 1,045.21.
 * - With a homestead and over 65 (school exemption 140,000 + 60,000): school
 *   (400,000 − 200,000) × 0.9252% = 1,850.40, county (400,000 − 3,000) × 0.375845% =
 *   1,492.10; tax 1,850.40 + 1,492.10465 + 2,296.068 = 5,638.57; savings 1,861.68.
 * - Orange County is in Florida (DOR 17.41 mills, 1.741%: 300,000 → 5,223) and in California
 *   (BOE 1.064%: 500,000 → 5,320; by the BOE levy parts of rules/ca/counties.yaml, school
 *   0.652325% → 3,261.625 → 3,261.63, county 0.056461% → 282.305 → 282.31, city 0.106422% →
 *   532.11, other districts 0.248792% → 1,243.96; homeowners' claim 7,000 × 1.064% = 74.48):
 *   one county text, two places.
 * - Kings County, NY class 1, 800,000: assessed 6% = 48,000 × 19.843% = 9,524.64.
 *
 * Under PTAX_MUTATION these tests are what the mutation run of engine/batch leans on: they
 * are small on purpose (a few dozen rows).
 */
import { describe, expect, it } from 'vitest';
import { readBundle } from '../build/bundle.js';
import { Calculator, inputFacts, inputFromFlags, type CalcInput, type FlagInput, type ProgramSource } from '../core/calculate.js';
import { nodeProgramSource } from '../codegen/node.js';
import { BatchCalculator, NOTE_SEPARATOR, RESULT_COLUMNS } from './batch.js';
import { CsvOut, csvEscape } from './csv-out.js';

const bundle = readBundle('dist/rules/bundle.json');
const source = nodeProgramSource();
const generated = () => new Calculator(bundle, { generated: source });
const interpreted = () => new Calculator(bundle, { generated: false });
const WAYS = [
  ['generated program', generated],
  ['interpreter', interpreted],
] as const;

const row = (f: Partial<FlagInput> & { state: string; county: string }, year?: number): CalcInput => inputFromFlags(f as FlagInput, year);
/** The row's cells, or its error as "ERROR code: message". */
const csvOf = (b: BatchCalculator, x: CalcInput): string => {
  try {
    return b.csv(x);
  } catch (e) {
    return `ERROR ${(e as { code?: string }).code}: ${(e as Error).message}`;
  }
};

const TRAVIS_FIGURES = '7500.25,625.02,1.875062,400000,400000,400000,0,3700.8,1503.38,2296.07,0';
const UNITS =
  "The rates used are the county's, its principal school district's and its principal city's (named in the result); special districts (MUD, hospital, community college, emergency services and others) are not included and come on top of this estimate";
/** A notes cell: the notes joined, quoted as CSV quotes a field. */
const notesCell = (...notes: string[]) => csvEscape(notes.join(NOTE_SEPARATOR));
const TRAVIS = `Travis County,tx,2025,${TRAVIS_FIGURES},1306.56,${notesCell(UNITS)}`;
const CARRIED_BACK = "The county's 2025 rates are the earliest in the data; they stand in for 2024";
const CARRIED = 'Rules for 2030 are not published yet; 2025 values are carried forward as the estimate';
const OVER65_ALONE = 'The over-65 and disabled-person exemptions apply only to a homestead; none was applied';
const PURCHASE = "The purchase price and year apply to California's Proposition 13; Texas does not use them";

/** Rows in the order given to one BatchCalculator, each with its line worked out by hand (see the header). */
const ROWS: Array<[string, CalcInput, string]> = [
  ['Travis', row({ state: 'TX', county: 'Travis', value: 400_000 }), TRAVIS],
  ['Travis again (the place cache)', row({ state: 'TX', county: 'Travis', value: 400_000 }), TRAVIS],
  [
    'Travis with a county rate of its own',
    row({ state: 'TX', county: 'Travis', value: 400_000, countyRate: 1.5 }),
    `Travis County,tx,2025,6000,500,1.5,400000,400000,400000,0,2960.54,1202.66,1836.79,0,1045.21,${notesCell(UNITS, "County rate 1.5% used as given, instead of the county's 1.8751%")}`,
  ],
  ['Travis after the county rate row: its own rate again', row({ state: 'TX', county: 'Travis', value: 400_000 }), TRAVIS],
  [
    'Travis with a homestead, over 65',
    row({ state: 'TX', county: 'Travis', value: 400_000, homestead: true, over65: true }),
    'Travis County,tx,2025,5638.57,469.88,1.409643,400000,400000,400000,1861.68,1850.4,1492.1,2296.07,0,0,' +
      notesCell(
        UNITS,
        'School taxes on this homestead are frozen at the amount of the year the owner qualified (school tax ceiling); the ceiling is not computed here',
        "A buyer's estimate: the home is appraised at its market value, as in the first year of a homestead; an owner who has had the homestead since last year gives last year's appraised value for the 10% cap",
      ),
  ],
  [
    'Travis, 2024 rules',
    row({ state: 'TX', county: 'Travis', value: 400_000 }, 2024),
    `Travis County,tx,2024,${TRAVIS_FIGURES},936.48,${notesCell(UNITS, CARRIED_BACK)}`,
  ],
  [
    'Travis, 2030: 2025 carried forward',
    row({ state: 'TX', county: 'Travis', value: 400_000 }, 2030),
    `Travis County,tx,2025,${TRAVIS_FIGURES},1306.56,${notesCell(UNITS, CARRIED)}`,
  ],
  ['Travis, no year again', row({ state: 'TX', county: 'Travis', value: 400_000 }), TRAVIS],
  ['travis, lower case state and county', row({ state: 'tx', county: 'travis', value: 400_000 }), TRAVIS],
  [
    'TRAVIS COUNTY, 2030',
    row({ state: ' TX', county: 'TRAVIS COUNTY', value: 400_000 }, 2030),
    `Travis County,tx,2025,${TRAVIS_FIGURES},1306.56,${notesCell(UNITS, CARRIED)}`,
  ],
  [
    'Orange, Florida',
    row({ state: 'FL', county: 'Orange', value: 300_000 }),
    'Orange County,fl,2025,5223,435.25,1.741,300000,300000,300000,0,1934.7,2085.78,767.16,435.36,717.19,',
  ],
  [
    'Orange, California',
    row({ state: 'CA', county: 'Orange', value: 500_000 }),
    'Orange County,ca,2025,5320,443.33,1.064,500000,500000,500000,0,3261.63,282.31,532.11,1243.96,74.48,' +
      notesCell(
        "A buyer's estimate: the assessed value is the market value, as after a purchase; an owner who bought earlier gives the purchase year and price for the Prop 13 limit",
      ),
  ],
  [
    'Orange, Florida again',
    row({ state: 'FL', county: 'Orange', value: 300_000 }),
    'Orange County,fl,2025,5223,435.25,1.741,300000,300000,300000,0,1934.7,2085.78,767.16,435.36,717.19,',
  ],
  [
    'Kings, class 1',
    row({ state: 'NY', county: 'Kings', value: 800_000, class: 'class1' }),
    'Kings County,ny.nyc,2026,9524.64,793.72,1.19058,48000,48000,48000,0,5562.39,0,3962.25,0,825.48,',
  ],
  [
    'the hub: no county, its one note quoted',
    row({ state: 'HUB', county: '', value: 400_000 }),
    ',hub,2025,0,0,0,0,0,0,0,0,0,0,0,0,"Choose a state (New York, Texas, California or Florida) to estimate property tax"',
  ],
  ['an unknown county', row({ state: 'TX', county: 'Nowhere', value: 400_000 }), 'ERROR UNKNOWN_COUNTY'],
  ['a value that is not a number, at a known place', row({ state: 'TX', county: 'Travis', value: NaN }), 'ERROR INVALID_VALUE: Market value must be a number'],
  ['an infinite value, at a known place', row({ state: 'TX', county: 'Travis', value: Infinity }), 'ERROR INVALID_VALUE'],
  ['Travis after the bad rows', row({ state: 'TX', county: 'Travis', value: 400_000 }), TRAVIS],
];

describe('BatchCalculator: rows worked out by hand', () => {
  for (const [way, make] of WAYS) {
    it(`${way}: each row's cells, fresh and from the place cache, in one run`, () => {
      const b = new BatchCalculator(make());
      const got = ROWS.map(([what, x, want]) => {
        const s = csvOf(b, x);
        return [what, want.startsWith('ERROR') && !want.includes(':') ? s.split(':')[0] : s];
      });
      expect(got).toEqual(ROWS.map(([what, , want]) => [what, want]));
      // The bundled rules never turn the place cache off.
      expect(b.fastOff).toBeNull();
    });

    it(`${way}: each row alone, in a fresh calculator, gives the same cells`, () => {
      for (const [what, x, want] of ROWS) {
        if (want.startsWith('ERROR')) continue;
        expect([what, csvOf(new BatchCalculator(make()), x)]).toEqual([what, want]);
      }
    });
  }

  it('the cells are as many as RESULT_COLUMNS, the figures where their columns say', () => {
    // The figures, then the notes cell (quoted: it holds commas).
    const cut = TRAVIS.indexOf(',"');
    const cells = [...TRAVIS.slice(0, cut).split(','), TRAVIS.slice(cut + 1)];
    expect(cells).toHaveLength(RESULT_COLUMNS.length);
    const at = (name: string) => cells[RESULT_COLUMNS.findIndex((c) => c.name === name)];
    expect([at('countyName'), at('program'), at('rulesYear'), at('annualTax'), at('monthlyTax'), at('potentialSavings'), at('notes')]).toEqual([
      'Travis County',
      'tx',
      '2025',
      '7500.25',
      '625.02',
      '1306.56',
      `"${UNITS}"`,
    ]);
  });
});

describe('the notes cell', () => {
  // TX: over 65 without a homestead gives one note; a purchase price another; both, both in
  // the program's order; a later year adds the place's own note last.
  const cases: Array<[Partial<FlagInput>, number | undefined, string[]]> = [
    [{ over65: true }, undefined, [OVER65_ALONE]],
    [{ purchasePrice: 300_000 }, undefined, [PURCHASE]],
    [{ over65: true, purchasePrice: 300_000 }, undefined, [OVER65_ALONE, PURCHASE]],
    [{ over65: true, purchasePrice: 300_000 }, 2030, [OVER65_ALONE, PURCHASE, CARRIED]],
    [{ purchasePrice: 300_000 }, 2030, [PURCHASE, CARRIED]],
    [{}, 2030, [CARRIED]],
    [{ over65: true }, undefined, [OVER65_ALONE]],
    [{}, undefined, []],
    [{ purchasePrice: 300_000 }, undefined, [PURCHASE]],
  ];
  for (const [way, make] of WAYS) {
    it(`${way}: the notes that apply, in order, then the place's, joined by "${NOTE_SEPARATOR}"`, () => {
      const b = new BatchCalculator(make());
      for (const [flags, year, notes] of cases) {
        const line = b.csv(row({ state: 'TX', county: 'Travis', value: 400_000, ...flags }, year));
        // Over 65 without a homestead: the claim adds the over-65 school exemption, 60,000 × 0.9252% = 555.12 more.
        const savings = flags.over65 ? '1861.68' : '1306.56';
        expect([flags, year, line]).toEqual([flags, year, `Travis County,tx,2025,${TRAVIS_FIGURES},${savings},${notesCell(UNITS, ...notes)}`]);
      }
    });

    it(`${way}: in Spanish (lang es), the notes are the Spanish ones`, () => {
      const b = new BatchCalculator(make(), { lang: 'es' });
      expect(b.lang).toBe('es');
      const x = row({ state: 'TX', county: 'Travis', value: 400_000, over65: true, purchasePrice: 300_000 }, 2030);
      expect(b.csv(x)).toBe(
        `Travis County,tx,2025,${TRAVIS_FIGURES},1861.68,` +
          notesCell(
            'Las tasas usadas son las del condado, su distrito escolar principal y su ciudad principal (nombrados en el resultado); los distritos especiales (MUD, hospital, colegio comunitario, servicios de emergencia y otros) no están incluidos y se suman a esta estimación',
            'Las exenciones para mayores de 65 y personas con discapacidad solo se aplican a la vivienda principal; no se aplicó ninguna',
            'El precio y el año de compra se usan para la Proposición 13 de California; Texas no los usa',
            'Las reglas de 2030 aún no se han publicado; se usan las de 2025 como estimación',
          ),
      );
      expect(new BatchCalculator(make()).lang).toBe('en');
    });
  }
});

describe('the place cache', () => {
  it('placeOf: one place for every spelling of a county, another for another year or state; none for a row of its own rate or a bad number', () => {
    const b = new BatchCalculator(generated());
    const place = b.placeOf(row({ state: 'TX', county: 'Travis', value: 400_000 }))!;
    expect(place).toBeDefined();
    expect([place.state, place.countyName, place.compiled.program.id, place.compiled.year, place.notes]).toEqual(['TX', 'Travis County', 'tx', 2025, []]);
    expect(place.prefix.toString('utf8')).toBe('Travis County,tx,2025,');
    for (const county of ['Travis', 'travis', 'TRAVIS COUNTY', 'Travis County']) {
      expect([county, b.placeOf(row({ state: 'tx', county, value: 1 }))]).toEqual([county, place]);
      expect(b.placeOf(row({ state: 'tx', county, value: 1 })) === place).toBe(true);
    }
    const later = b.placeOf(row({ state: 'TX', county: 'Travis', value: 400_000 }, 2030))!;
    expect(later === place).toBe(false);
    expect([later.compiled.year, later.notes]).toEqual([2025, [CARRIED]]);
    const earlier = b.placeOf(row({ state: 'TX', county: 'travis', value: 400_000 }, 2024))!;
    expect([earlier.compiled.year, earlier.notes]).toEqual([2024, [CARRIED_BACK]]);
    // Not a Florida county: prepare's error, and no place for Texas's Travis.
    expect(() => b.placeOf(row({ state: 'FL', county: 'Travis County', value: 1 }))).toThrow(expect.objectContaining({ code: 'UNKNOWN_COUNTY' }));
  });

  it('placeOf: the rows prepare must see are not given a place', () => {
    const b = new BatchCalculator(generated());
    expect(b.placeOf(row({ state: 'TX', county: 'Travis', value: 400_000 }))).toBeDefined();
    expect(b.placeOf(row({ state: 'TX', county: 'Travis', value: 400_000, countyRate: 1.5 }))).toBeUndefined();
    expect(b.placeOf(row({ state: 'TX', county: 'Travis', value: 400_000, countyRate: 0 }))).toBeUndefined();
    expect(b.placeOf(row({ state: 'TX', county: 'Travis', value: NaN }))).toBeUndefined();
    expect(b.placeOf(row({ state: 'TX', county: 'Travis', value: 400_000, priorAssessed: Infinity }))).toBeUndefined();
    expect(b.placeOf(row({ state: 'TX', county: 'Travis', value: 400_000, priorAssessed: 10_000, purchasePrice: 1 }))).toBeDefined();
    expect(b.fastOff).toBeNull();
  });

  it('Orange in Florida and in California: two places for one county text, each time', () => {
    const b = new BatchCalculator(generated());
    const fl = b.placeOf(row({ state: 'FL', county: 'Orange', value: 1 }))!;
    const ca = b.placeOf(row({ state: 'CA', county: 'Orange', value: 1 }))!;
    expect([fl.state, ca.state]).toEqual(['FL', 'CA']);
    expect(b.placeOf(row({ state: 'FL', county: 'Orange', value: 1 }))).toBe(fl);
    expect(b.placeOf(row({ state: 'CA', county: 'Orange', value: 1 }))).toBe(ca);
    expect(b.placeOf(row({ state: 'fl', county: 'Orange', value: 1 }))).toBe(fl);
  });

  it('csvFacts: a row read as its facts, at a known place, prints as csv prints it', () => {
    const b = new BatchCalculator(generated());
    const x = row({ state: 'TX', county: 'Travis', value: 400_000, homestead: true, over65: true });
    const place = b.placeOf(x)!;
    const w = new CsvOut();
    w.ensure(1 << 16);
    w.str('x,');
    // The facts of another row (no homestead, not over 65): those are what is printed.
    b.csvFacts(place, inputFacts(row({ state: 'TX', county: 'Travis', value: 400_000 })), w);
    const first = w.buf.toString('utf8', 0, w.pos);
    expect(first).toBe(`x,${TRAVIS}`);
  });
});

for (const [way, make] of WAYS)
  it(`${way}: places of one program share its fact array, each row with its own place's facts (Hardin, Franklin, Hardin)`, () => {
    // rules/oh/counties.yaml (Census ACS 2019–2023, the Tax Foundation's table): Hardin
    // 1,513 / 134,800 = 1.1224%, Franklin 4,110 / 265,700 = 1.5469%; one program
    // (county_level). 100,000 × 1.1224% = 1,122.40; 100,000 × 1.5469% = 1,546.90.
    const b = new BatchCalculator(make());
    const hardin = row({ state: 'OH', county: 'Hardin', value: 100_000 });
    const franklin = row({ state: 'OH', county: 'Franklin', value: 100_000 });
    const placeH = b.placeOf(hardin)!;
    const placeF = b.placeOf(franklin)!;
    expect(placeH).not.toBe(placeF);
    expect(placeH.compiled).toBe(placeF.compiled);
    const printed = (place: typeof placeH, x: CalcInput) => {
      const w = new CsvOut();
      w.ensure(1 << 16);
      b.csvFacts(place, inputFacts(x, bundle), w);
      return w.buf.toString('utf8', 0, w.pos).split(',').slice(0, 6);
    };
    const h = ['Hardin County', 'county_level', '2025', '1122.4', '93.53', '1.1224'];
    const f = ['Franklin County', 'county_level', '2025', '1546.9', '128.91', '1.5469'];
    expect(printed(placeH, hardin)).toEqual(h);
    expect(printed(placeF, franklin)).toEqual(f);
    expect(printed(placeH, hardin)).toEqual(h);
    expect(printed(placeH, hardin)).toEqual(h);
    expect(printed(placeF, franklin)).toEqual(f);
  });

describe('csvInto and csv', () => {
  it('csvInto writes after what the buffer holds; a bad row throws having written nothing', () => {
    for (const [, make] of WAYS) {
      const b = new BatchCalculator(make());
      const w = new CsvOut();
      w.ensure(1 << 16);
      w.str('a,b,');
      b.csvInto(row({ state: 'TX', county: 'Travis', value: 400_000 }), w);
      w.byte(10);
      const at = w.pos;
      expect(() => b.csvInto(row({ state: 'TX', county: 'Travis', value: -5 }), w)).toThrow(expect.objectContaining({ code: 'INVALID_VALUE' }));
      expect(() => b.csvInto(row({ state: 'TX', county: 'Nowhere', value: 5 }), w)).toThrow(expect.objectContaining({ code: 'UNKNOWN_COUNTY' }));
      expect(w.pos).toBe(at);
      b.csvInto(row({ state: 'FL', county: 'Orange', value: 300_000 }), w);
      expect(w.buf.toString('utf8', 0, w.pos)).toBe(
        `a,b,${TRAVIS}\nOrange County,fl,2025,5223,435.25,1.741,300000,300000,300000,0,1934.7,2085.78,767.16,435.36,717.19,`,
      );
    }
  });

  it('csv returns one row each call (its buffer reused), the same after an error', () => {
    const b = new BatchCalculator(generated());
    expect(b.csv(row({ state: 'TX', county: 'Travis', value: 400_000 }))).toBe(TRAVIS);
    expect(() => b.csv(row({ state: 'TX', county: 'Travis', value: NaN }))).toThrow();
    expect(b.csv(row({ state: 'TX', county: 'Travis', value: 400_000 }))).toBe(TRAVIS);
    expect(b.csv(row({ state: 'TX', county: 'Travis', value: 400_000 }))).toBe(TRAVIS);
  });
});

describe('result (NDJSON): the whole result object', () => {
  for (const [way, make] of WAYS) {
    it(`${way}: equal to Calculator.calculate, the place's own note last`, () => {
      const calc = make();
      const b = new BatchCalculator(calc);
      for (const x of [
        row({ state: 'TX', county: 'Travis', value: 400_000 }, 2030),
        row({ state: 'TX', county: 'Travis', value: 400_000 }, 2030),
        row({ state: 'tx', county: 'travis', value: 400_000, over65: true }, 2030),
        row({ state: 'TX', county: 'Travis', value: 400_000, countyRate: 1.5 }),
        row({ state: 'FL', county: 'Orange', value: 300_000 }),
      ])
        expect(b.result(x)).toEqual(calc.calculate(x));
      const r = b.result(row({ state: 'TX', county: 'TRAVIS', value: 400_000, over65: true }, 2030));
      expect([r.state, r.county, r.year, r.program, r.annualTax, r.potentialSavings, r.notes]).toEqual([
        'TX',
        'Travis County',
        2025,
        'tx',
        7500.25,
        1861.68,
        [UNITS, OVER65_ALONE, CARRIED],
      ]);
      expect(() => b.result(row({ state: 'TX', county: 'Travis', value: NaN }))).toThrow(expect.objectContaining({ code: 'INVALID_VALUE' }));
    });
  }
});

describe("a generated row's cells that are not numbers", () => {
  it('print as their cell: text as a field, null as an empty cell (the odd bits)', () => {
    // The bundled rules give numbers in every batch column; a rule may give text or null
    // (engine/codegen/js.ts marks them as bits). Here the tx program's batch row is made to
    // give text for annualTax (column 0) and null for potentialSavings (column 11).
    const odd: ProgramSource = (bn, id, year) => {
      const g = source(bn, id, year);
      if (!g) return undefined;
      return {
        ...g,
        evaluate: ((v: unknown[], lang: 'en' | 'es', keep: boolean, nums?: Float64Array, other?: unknown[]) => {
          const out = (g.evaluate as (...a: unknown[]) => unknown)(v, lang, keep, nums, other);
          if (nums && other) {
            other[0] = 'n/a, see "bill"';
            other[11] = null;
            nums[nums.length - 1] = (nums[nums.length - 1]! | 1 | (1 << 11)) >>> 0;
          }
          return out;
        }) as typeof g.evaluate,
      };
    };
    const b = new BatchCalculator(new Calculator(bundle, { generated: odd }));
    const x = row({ state: 'TX', county: 'Travis', value: 400_000 });
    expect(b.csv(x)).toBe(`Travis County,tx,2025,"n/a, see ""bill""",625.02,1.875062,400000,400000,400000,0,3700.8,1503.38,2296.07,0,,${notesCell(UNITS)}`);
    expect(b.csv(x)).toBe(`Travis County,tx,2025,"n/a, see ""bill""",625.02,1.875062,400000,400000,400000,0,3700.8,1503.38,2296.07,0,,${notesCell(UNITS)}`);
  });
});

describe('what the place cache must not change', () => {
  it('a year asked for that the rules do not cover is refused, also after the place is known without a year', () => {
    const b = new BatchCalculator(generated());
    expect(b.csv(row({ state: 'TX', county: 'Travis', value: 400_000 }))).toBe(TRAVIS);
    for (const year of [1, 2019])
      expect(csvOf(b, row({ state: 'TX', county: 'Travis', value: 400_000 }, year))).toBe(
        `ERROR YEAR_NOT_COVERED: ${(() => {
          try {
            generated().calculate(row({ state: 'TX', county: 'Travis', value: 400_000 }, year));
          } catch (e) {
            return (e as Error).message;
          }
          return 'no error';
        })()}`,
      );
    expect(b.csv(row({ state: 'TX', county: 'Travis', value: 400_000 }, 2024))).toBe(
      `Travis County,tx,2024,${TRAVIS_FIGURES},936.48,${notesCell(UNITS, CARRIED_BACK)}`,
    );
  });

  it("the program's template is left as compiled (each row works in a copy)", () => {
    for (const [, make] of WAYS) {
      const calc = make();
      const b = new BatchCalculator(calc);
      const template = calc.compiled('tx', 2025).template.slice();
      b.csv(row({ state: 'TX', county: 'Travis', value: 400_000 }));
      b.result(row({ state: 'TX', county: 'Travis', value: 123_456, homestead: true }));
      b.csv(row({ state: 'TX', county: 'Travis', value: 777_777, over65: true }));
      expect(calc.compiled('tx', 2025).template).toEqual(template);
    }
  });

  it('spellings that prepare reads as one county share one place, even with other slugs', () => {
    const b = new BatchCalculator(generated());
    const a = b.placeOf(row({ state: 'FL', county: 'St. Johns County', value: 1 }))!;
    const c = b.placeOf(row({ state: 'FL', county: 'Saint Johns', value: 1 }))!;
    expect(c.countyName).toBe('St. Johns County');
    expect(c === a).toBe(true);
  });

  it('the year asked for and none share one place when they give the same facts, found once whichever comes first; a later year (rules carried forward) is a place of its own', () => {
    const b = new BatchCalculator(generated());
    const none = b.placeOf(row({ state: 'OH', county: 'Hardin', value: 1 }))!;
    const same = b.placeOf(row({ state: 'OH', county: 'Hardin County', value: 1 }, 2025))!;
    const later = b.placeOf(row({ state: 'OH', county: 'hardin', value: 1 }, 2026))!;
    expect(same).toBe(none);
    expect(later).not.toBe(none);
    expect([none.own[0], later.own[0]]).toEqual([2025, 2026]);
    expect(later.notes).toEqual(['Rules for 2026 are not published yet; 2025 values are carried forward as the estimate']);
    // The reader's way in (the state's code and the county's keys worked out by placeOfRow): the same places.
    const facts = inputFacts(row({ state: 'OH', county: 'x', value: 1 }), bundle);
    const never = () => {
      throw new Error('a known place needs no input object');
    };
    expect(b.placeOfRow('oh', 'HARDIN', 2026, facts, never)).toBe(later);
    expect(b.placeOfRow('Ohio', 'Hardin', undefined, facts, never)).toBe(none);
    // Another county of the state: a place of its own, through prepare (the input object made once).
    let made = 0;
    const franklin = b.placeOfRow('OH', 'Franklin', undefined, facts, () => (made++, row({ state: 'OH', county: 'Franklin', value: 1 })))!;
    expect([franklin.countyName, made]).toEqual(['Franklin County', 1]);
    // The year asked for, not seen with this county yet: the year none asked resolved to (2025,
    // with no note), so the same place without prepare (no second input object).
    expect(b.placeOfRow('OH', 'Franklin County', 2025, facts, never)).toBe(franklin);
    expect(made).toBe(1);
    // The other way round: 2025 asked first, then none asked.
    const licking = b.placeOfRow('OH', 'Licking', 2025, facts, () => (made++, row({ state: 'OH', county: 'Licking', value: 1 }, 2025)))!;
    expect([licking.countyName, licking.own[0], made]).toEqual(['Licking County', 2025, 2]);
    expect(b.placeOfRow('OH', 'Licking', undefined, facts, never)).toBe(licking);
    // A later year asked first (its own note): none asked is not that place.
    const ross = b.placeOfRow('OH', 'Ross', 2026, facts, () => (made++, row({ state: 'OH', county: 'Ross', value: 1 }, 2026)))!;
    const rossNone = b.placeOfRow('OH', 'Ross', undefined, facts, () => (made++, row({ state: 'OH', county: 'Ross', value: 1 })))!;
    expect([ross.own[0], rossNone.own[0], rossNone === ross, made]).toEqual([2026, 2025, false, 4]);
    expect(rossNone.notes).toEqual([]);
  });

  it('a state whose program choice reads an input fact: its rows go through prepare (no place), with the program each row chooses', () => {
    // New York as if its City program were chosen by the homestead flag instead of the county.
    const ny = bundle.states.NY!;
    const when = { all: [{ fact: 'homestead', operator: 'equal', value: true }] };
    const b = {
      ...bundle,
      states: { ...bundle.states, NY: { ...ny, programs: ny.programs.map((p) => (p.program === 'ny.nyc' ? { ...p, when } : p)) } },
    } as typeof bundle;
    const calc = new Calculator(b);
    const fast = new BatchCalculator(calc);
    const facts = inputFacts(row({ state: 'NY', county: 'x', value: 1 }), b);
    let made = 0;
    const input = (homestead: boolean) => () => (made++, row({ state: 'NY', county: 'Albany', value: 300_000, homestead }));
    expect(fast.placeOfRow('NY', 'Albany', undefined, facts, input(true))).toBeUndefined();
    expect(made).toBe(0); // not even an input object: the row goes to prepare whole
    // Another state keeps its places.
    expect(fast.placeOfRow('OH', 'Franklin', undefined, facts, () => row({ state: 'OH', county: 'Franklin', value: 1 }))?.countyName).toBe('Franklin County');
    // Albany with and without the flag: two programs, each row's own, as calculate gives them.
    const yes = row({ state: 'NY', county: 'Albany', value: 300_000, homestead: true, class: 'class1' });
    const no = row({ state: 'NY', county: 'Albany', value: 300_000, homestead: false, class: 'class1' });
    expect([fast.result(yes).program, fast.result(no).program]).toEqual(['ny.nyc', 'ny.outside']);
    expect(fast.result(yes)).toEqual(calc.calculate(yes));
    expect(fast.result(no)).toEqual(calc.calculate(no));
  });

  it('Spanish, for a row that goes through prepare (a county rate of its own): the result in Spanish', () => {
    const calc = generated();
    const b = new BatchCalculator(calc, { lang: 'es' });
    const x = row({ state: 'TX', county: 'Travis', value: 400_000, countyRate: 1.5 });
    const r = b.result(x);
    expect(r).toEqual(calc.calculate(x, { lang: 'es' }));
    expect([r.annualTax, r.notes.length]).toEqual([6000, 2]);
    expect(r.notes[1]).not.toBe(calc.calculate(x).notes[1]);
  });
});

describe('when prepare and the place cache disagree, the cache turns itself off', () => {
  it('every row then goes through prepare, with the reason in fastOff', () => {
    // A calculator whose prepare sees one more dollar of value than the row gives: the
    // facts the cache fills from the row no longer equal prepare's.
    class OffByOne extends Calculator {
      override prepare(...a: Parameters<Calculator['prepare']>): ReturnType<Calculator['prepare']> {
        const p = super.prepare(...a);
        p.facts[0] = (p.facts[0] as number) + 1;
        return p;
      }
    }
    const b = new BatchCalculator(new OffByOne(bundle, { generated: source }));
    expect(b.placeOf(row({ state: 'TX', county: 'Travis', value: 400_000 }))).toBeUndefined();
    expect(b.fastOff).toBe("the facts filled for TX Travis County differ from prepare's");
    // 400,001 × 1.875062% = 7,500.27 (what prepare's facts give), each time.
    for (let i = 0; i < 2; i++)
      expect(b.csv(row({ state: 'TX', county: 'Travis', value: 400_000 })).slice(0, 41)).toBe('Travis County,tx,2025,7500.27,625.02,1.87');
    expect(b.placeOf(row({ state: 'TX', county: 'Travis', value: 400_000 }))).toBeUndefined();
  });
});

describe('columns whose leaf a program does not have, or whose unit is a count or text', () => {
  // The tx program's results with monthlyTax as a count, effectiveRate as text and no
  // potentialSavings; the fl program's countyBreakdown one figure instead of a group. The
  // generated modules of the bundled rules compute the figures (the same formulas).
  const changed: typeof bundle = JSON.parse(JSON.stringify(bundle));
  const tx = changed.programs['tx']!.result as Record<string, any>;
  tx['monthlyTax'].unit = 'count';
  tx['effectiveRate'].unit = 'text';
  delete tx['potentialSavings'];
  const fl = changed.programs['fl']!.result as Record<string, any>;
  fl['countyBreakdown'] = { formula: fl['annualTax'].formula, unit: 'usd' };
  const ways = [
    ['generated program', new Calculator(changed, { generated: (_b, id, year) => source(bundle, id, year) })],
    ['interpreter', new Calculator(changed, { generated: false })],
  ] as const;
  for (const [way, calc] of ways)
    it(`${way}: a count and text as String prints them (unrounded: 7,500.248 / 12 as computed in binary), a missing leaf an empty cell`, () => {
      const b = new BatchCalculator(calc);
      for (let i = 0; i < 2; i++) {
        expect(b.csv(row({ state: 'TX', county: 'Travis', value: 400_000 }))).toBe(
          `Travis County,tx,2025,7500.25,625.0206666666667,1.875062,400000,400000,400000,0,3700.8,1503.38,2296.07,0,,${notesCell(UNITS)}`,
        );
        expect(b.csv(row({ state: 'FL', county: 'Orange', value: 300_000 }))).toBe(
          'Orange County,fl,2025,5223,435.25,1.741,300000,300000,300000,0,,,,,717.19,',
        );
      }
    });
});

describe('csvEscape', () => {
  it('quotes a field with a comma, a quote, a line feed or a carriage return, and only those', () => {
    expect(['a,b', 'say "hi"', 'a\nb', 'a\rb', 'a;b', 'a\tb', '', 'é'].map(csvEscape)).toEqual([
      '"a,b"',
      '"say ""hi"""',
      '"a\nb"',
      '"a\rb"',
      'a;b',
      'a\tb',
      '',
      'é',
    ]);
  });
});
