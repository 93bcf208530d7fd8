/**
 * `ptax calc --lang es` and the calculators with --lang es: the whole table in Spanish (the
 * rows' labels from rules/results.yaml `label.es` or `cli.es`, the head line, the notes'
 * heading, the detail headings, the explanation's words from cli/format-es.ts), with the
 * same figures as the English run. Run as a child process (node dist/cli/main.js; build
 * first: npm run build:code). The figures are worked out by hand in the comments; the
 * English run of the same property is compared figure by figure.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DETAIL_KEYS, loadTexts, texts } from './format.js';

const ROOT = resolve('.');
const MAIN = join(ROOT, 'dist/cli/main.js');

function ptax(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('node', [MAIN, ...args], { cwd: ROOT }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      done({ code, stdout, stderr });
    });
  });
}

/** Runs the command in Spanish and in English: both exit 0 with nothing on stderr. */
async function both(...args: string[]): Promise<{ es: string[]; en: string[] }> {
  const [es, en] = await Promise.all([ptax(...args, '--lang', 'es'), ptax(...args)]);
  for (const r of [es, en]) {
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  }
  return { es: es.stdout.trimEnd().split('\n'), en: en.stdout.trimEnd().split('\n') };
}

/** The value of the table row labelled `label` (its indentation of 2 or 4 spaces, the label, two spaces or more, the value). */
function cell(lines: string[], label: string): string | undefined {
  const esc = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`^ {2,4}${esc} {2,}(\\S.*)$`);
  for (const l of lines) {
    const m = re.exec(l);
    if (m) return m[1];
  }
  return undefined;
}

/** The rows of a table as [label, value] (lines indented by two spaces, cells two spaces apart), before any explanation. */
const rows = (lines: string[]): Array<[string, string]> =>
  lines
    .slice(0, (lines.findIndex((l) => /^(Cómo se calculó|How this was calculated):$/.test(l)) + 1 || lines.length + 1) - 1)
    .filter((l) => /^ {2}\S/.test(l) || /^ {4}\S/.test(l))
    .flatMap((l) => {
      const m = /^ +(.+?) {2,}(\S.*)$/.exec(l);
      return m ? [[m[1]!, m[2]!] as [string, string]] : [];
    });

interface Decl {
  id: string;
  label: { en: string; es: string };
  cli?: true | { en: string; es: string };
}
/**
 * Every English label that the Spanish output must not hold: rules/results.yaml's labels and
 * cli labels (as the build wrote them in dist/rules/bundle.json), the programs' labels, and the
 * words of cli/format.ts's English texts (the pieces around their values); those written the
 * same in both languages (STAR, "no") are left out.
 */
let ENGLISH_LABELS: Set<string>;
let ENGLISH_WORDS: string[];
/** Values shown in English as they are and translated in Spanish ("yes", a STAR type, a bill's status). */
let ENGLISH_VALUES: Set<string>;
beforeAll(async () => {
  expect(existsSync(MAIN), 'dist/cli/main.js: build first (npm run build:code)').toBe(true);
  const bundle = JSON.parse(readFileSync(join(ROOT, 'dist/rules/bundle.json'), 'utf8')) as {
    results: Decl[];
    programs: Record<string, { label: { en: string; es: string } }>;
  };
  const labels = [
    ...bundle.results.flatMap((f) => [f.label, ...(f.cli && f.cli !== true ? [f.cli] : [])]),
    ...Object.values(bundle.programs).map((p) => p.label),
  ];
  ENGLISH_LABELS = new Set(labels.filter((l) => l.en !== l.es).map((l) => l.en));
  const en = texts('en');
  const es = await loadTexts('es');
  const M = '\u0001';
  const made = [
    en.head({ place: M, program: M, fiscal: false, year: 1, value: M, propertyClass: M }),
    en.head({ place: M, program: M, fiscal: true, year: 1, value: M }),
    en.calculatorHead({ title: M, place: M, years: [1, 2], year: 1 }),
    en.calculatorHead({ title: M, place: M, years: undefined, year: 1 }),
    en.place(`${M} County`) === es.place(`${M} County`) ? '' : en.place(`${M} County`),
    en.notes,
    en.saves(M),
    ...DETAIL_KEYS.map((k) => (en.detail(k) === es.detail(k) ? '' : en.detail(k))),
    en.howCalculated,
    `${en.rule}: `,
    en.inForce(M, M),
    en.needsCounty,
    en.noCalculators(M),
    en.counties(2, [M]),
  ];
  ENGLISH_VALUES = new Set([en.yes, ...Object.keys(es.values)]);
  // The pieces between the values ("\u0001 rules, tax year 1 · value \u0001" → " rules, tax year ", " · value "), those with a word.
  ENGLISH_WORDS = [...new Set(made.flatMap((x) => x.split(/\u0001|\d+/)).filter((x) => /[a-z]{2}/i.test(x)))];
  expect(ENGLISH_WORDS).toEqual(expect.arrayContaining(['Notes:', ' rules, tax year ', ' · value ', ' saves', 'How this was calculated:']));
  expect(ENGLISH_LABELS).toContain('Annual tax');
  expect(ENGLISH_LABELS).toContain('STAR saves');
});

/** No row labelled in English or with an English value, and no English word of the CLI's texts outside the citations (the sources' own titles, `--explain`). */
function noEnglish(lines: string[]): void {
  for (const [label, value] of rows(lines)) {
    expect(ENGLISH_LABELS.has(label.trim()), `English row label: ${label}`).toBe(false);
    expect(ENGLISH_VALUES.has(value), `English value: ${label} ${value}`).toBe(false);
  }
  for (const l of lines) {
    if (/<(https?:|\/how-it-works)/.test(l)) continue; // a citation: the source's title
    for (const w of ENGLISH_WORDS) expect(l.includes(w), `English "${w}" in: ${l}`).toBe(false);
  }
}

/** The Spanish table has the English table's figures, row for row (same order, same values). */
function sameFigures(es: string[], en: string[]): void {
  expect(rows(es).map(([, v]) => v)).toEqual(
    rows(en)
      .map(([, v]) => v)
      .map((v) => ({ yes: 'sí', basic: 'básico', enhanced: 'mejorado' })[v] ?? v),
  );
}

describe('ptax calc --lang es: the table in Spanish, the figures of the English run', () => {
  it('New York City (Kings, class 1, $800,000, basic STAR)', async () => {
    const { es, en } = await both('calc', '--state', 'NY', '--county', 'Kings', '--class', 'class1', '--value', '800000', '--star', 'basic');
    expect(es[0]).toBe('Condado de Kings, NY · reglas: Ciudad de Nueva York, año fiscal 2026 · valor $800,000.00 · clase 1');
    expect(en[0]).toBe('Kings County, NY · New York City rules, fiscal year 2026 · value $800,000.00 · class1');
    // AV 800,000 × 6% = 48,000; × 19.843% = 9,524.64 base tax; basic STAR saves
    // min(30,000 × 19.843% × 58.4%, school part, 293) = 293; 9,524.64 − 293 = 9,231.64.
    expect(cell(es, 'Impuesto anual')).toBe('$9,231.64');
    expect(cell(es, 'Impuesto mensual')).toBe('$769.30'); // 9,231.64 / 12 = 769.30
    expect(cell(es, 'Valor tasado base')).toBe('$48,000.00');
    expect(cell(es, 'Ahorro por exenciones')).toBe('$293.00');
    expect(cell(es, 'Impuesto escolar')).toBe('$5,391.28'); // 9,231.64 × 58.4% = 5,391.28
    expect(cell(es, 'Impuesto municipal')).toBe('$3,840.36'); // 9,231.64 − 5,391.28
    expect(cell(es, 'Ahorro STAR')).toBe('$293.00');
    expect(cell(es, 'Ahorro potencial')).toBe('$825.48'); // 800,000 × 15% × 0.6879%
    expect(cell(es, 'Impuesto base de NYC')).toBe('$9,524.64');
    expect(cell(es, 'Pago trimestral de NYC')).toBe('$2,307.91'); // 9,231.64 / 4
    expect(es).toContain('    Ahorro STAR              $293.00');
    expect(cell(en, 'STAR saves')).toBe('$293.00');
    sameFigures(es, en);
    noEnglish(es);
  });

  it('New York outside the City (Albany, $300,000, homestead): the detail and the note', async () => {
    const { es, en } = await both('calc', '--state', 'NY', '--county', 'Albany', '--value', '300000', '--homestead');
    expect(es[0]).toBe('Condado de Albany, NY · reglas: Nueva York fuera de NYC, año tributario 2025 · valor $300,000.00');
    expect(cell(es, 'Impuesto anual')).toBe('$5,681.10'); // 300,000 × 1.8937%
    expect(cell(es, 'Impuesto mensual')).toBe('$473.43'); // 5,681.10 / 12 = 473.425
    expect(cell(es, 'Impuesto escolar')).toBe('$2,840.55'); // half of the rate: 300,000 × 0.94685%
    expect(cell(es, 'Impuesto del condado')).toBe('$1,704.33'); // 30%: 300,000 × 0.56811%
    expect(cell(es, 'Impuesto especial')).toBe('$284.06'); // 5%: 300,000 × 0.094685% = 284.055
    expect(es).toContain('Detalle de Nueva York:');
    // Basic STAR on the first 30,000 at the school rate: 30,000 × 0.94685% = 284.055.
    expect(cell(es, 'Tipo de STAR')).toBe('básico');
    expect(cell(es, 'Valor de STAR (ya incluido en la tasa típica de los propietarios, no se resta)')).toBe('$284.06');
    expect(es).toContain('Notas:');
    expect(en).toContain('Notes:');
    sameFigures(es, en);
    noEnglish(es);
  });

  it('Texas (Travis, $400,000, homestead) with --explain', async () => {
    const { es, en } = await both('calc', '--state', 'TX', '--county', 'Travis', '--value', '400000', '--homestead', '--explain');
    expect(es[0]).toBe('Condado de Travis, TX · reglas: Texas, año tributario 2025 · valor $400,000.00');
    // School 0.9252% on 400,000 − 140,000 = 2,405.52; county 0.375845% on 400,000 − 3,000 =
    // 1,492.10; city 0.574017% on 400,000 = 2,296.07; together 6,193.69.
    expect(cell(es, 'Impuesto anual')).toBe('$6,193.69');
    expect(cell(es, 'Impuesto escolar')).toBe('$2,405.52');
    expect(cell(es, 'Impuesto del condado')).toBe('$1,492.10');
    expect(cell(es, 'Impuesto municipal')).toBe('$2,296.07');
    // 140,000 × 0.9252% + 3,000 × 0.375845% = 1,295.28 + 11.28 = 1,306.56.
    expect(cell(es, 'Ahorro por vivienda principal')).toBe('$1,306.56');
    expect(cell(en, 'Homestead saves')).toBe('$1,306.56');
    expect(es).toContain('Detalle de Texas:');
    expect(cell(es, 'Exención de vivienda principal sobre el valor escolar')).toBe('$140,000.00');
    expect(es).toContain('Cómo se calculó:');
    // A parameter's date and file: "in force from" in English.
    const param = /^ {6}tx\.exemptions\.homestead_school \((vigente desde|in force from) 2025-01-01; rules\/tx\/exemptions\.yaml\): /;
    expect(es.find((l) => param.exec(l)?.[1] === 'vigente desde')).toBeDefined();
    expect(en.find((l) => param.exec(l)?.[1] === 'in force from')).toBeDefined();
    // The sources as the Spanish web names them: a product convention by the Spanish label of the
    // parameter it explains, a document by its Spanish title (web/src/i18n/citations.es.ts).
    expect(es).toContain(
      '      tx.average_rate (vigente desde 2023-01-01; rules/tx/split.yaml): ptax, cómo funciona: Tasa promedio de Texas </how-it-works#convention-tx-average-rate>',
    );
    expect(es.some((l) => l.includes('ptax, how it works'))).toBe(false);
    expect(es.some((l) => l.startsWith('      regla: Código Tributario de Texas §'))).toBe(true);
    sameFigures(es, en);
    noEnglish(es);
  });

  it('California (Los Angeles, $700,000)', async () => {
    const { es, en } = await both('calc', '--state', 'CA', '--county', 'Los Angeles', '--value', '700000');
    expect(es[0]).toBe('Condado de Los Angeles, CA · reglas: California, año tributario 2025 · valor $700,000.00');
    // 700,000 × 1% = 7,000 plus the voter-approved 0.181%: 1,267; 8,267.00; / 12 = 688.92.
    expect(cell(es, 'Impuesto anual')).toBe('$8,267.00');
    expect(cell(es, 'Impuesto mensual')).toBe('$688.92');
    expect(cell(es, 'Su tasa efectiva')).toBe('1.18%');
    expect(es).toContain('Detalle de California:');
    expect(cell(es, 'Impuesto base')).toBe('$7,000.00');
    expect(cell(es, 'Impuesto aprobado por los votantes')).toBe('$1,267.00');
    sameFigures(es, en);
    noEnglish(es);
  });

  it('Florida (Miami-Dade, $400,000)', async () => {
    const { es, en } = await both('calc', '--state', 'FL', '--county', 'Miami-Dade', '--value', '400000');
    expect(es[0]).toBe('Condado de Miami-Dade, FL · reglas: Florida, año tributario 2025 · valor $400,000.00');
    // School 400,000 × 0.6633% = 2,653.20; the rest 400,000 × 1.18563% = 4,742.52; 7,395.72; / 12 = 616.31.
    expect(cell(es, 'Impuesto anual')).toBe('$7,395.72');
    expect(cell(es, 'Impuesto mensual')).toBe('$616.31');
    expect(cell(es, 'Impuesto no escolar')).toBe('$4,742.52');
    expect(es).toContain('Detalle de Florida:');
    sameFigures(es, en);
    noEnglish(es);
  });

  it('a county-level state (Franklin County, OH, $300,000) with --explain', async () => {
    const { es, en } = await both('calc', '--state', 'OH', '--county', 'Franklin', '--value', '300000', '--explain');
    expect(es[0]).toBe('Condado de Franklin, OH · reglas: Estimación a nivel de condado, año tributario 2025 · valor $300,000.00');
    expect(cell(es, 'Impuesto anual')).toBe('$4,640.70'); // 300,000 × 1.5469%
    expect(cell(es, 'Impuesto mensual')).toBe('$386.73'); // 4,640.70 / 12 = 386.725
    expect(cell(es, 'Tasa típica de los propietarios')).toBe('1.55%');
    expect(es).toContain('Cómo se calculó:');
    expect(en).toContain('How this was calculated:');
    expect(es).toContain('   2. Impuesto anual: $300,000 × 1.5469% = $4,640.70');
    sameFigures(es, en);
    noEnglish(es);
  });
});

describe('the calculators and the lists with --lang es', () => {
  it('ptax tx vote: the head line, the rows and what each proposition saves', async () => {
    const { es, en } = await both('tx', 'vote', '--county', 'Travis', '--value', '300000', '--homestead');
    expect(es[0]).toBe('Enmiendas de noviembre de 2025 · Condado de Travis, TX · años 2024 → 2025');
    expect(en[0]).toBe('November 2025 amendments · Travis County, TX · years 2024 → 2025');
    expect(es.some((l) => /^ {2}Proposición 13 \(SJR 2\) ahorra +\$\d/.test(l))).toBe(true);
    expect(es).toContain('Notas:');
    sameFigures(es, en);
    noEnglish(es);
  });

  it('ptax fl tax-shock: a figure the calculator does not declare is named by its Spanish label', async () => {
    const { es, en } = await both('fl', 'tax-shock', '--county', 'Broward', '--value', '500000', '--purchase-price', '500000', '--seller-tax', '3000');
    expect(es[0]).toBe('Impacto fiscal para compradores primerizos · Condado de Broward, FL · año 2025');
    expect(cell(es, 'Impuesto anual')).toBe(cell(en, 'annualTax'));
    expect(cell(es, 'Comparado con el impuesto del vendedor')).toBe('sí');
    sameFigures(es, en);
    noEnglish(es);
  });

  it('ptax tx payment: the bill status in Spanish', async () => {
    const { es, en } = await both('tx', 'payment', '--county', 'Travis', '--tax', '5000', '--date', '2026-02-15');
    expect(es[0]).toBe('Pago, multa e interés · TX · año 2025');
    expect(cell(es, 'Estado del pago')).toBe('en mora');
    expect(cell(en, 'Payment status')).toBe('delinquent');
    // Delinquent in February: 6% penalty + 1% interest on 5,000 = 350; 5,350 due.
    expect(cell(es, 'Multa e interés')).toBe('$350.00');
    expect(cell(es, 'Total a pagar')).toBe('$5,350.00');
    noEnglish(es);
  });

  it('ptax tx list and ptax counties', async () => {
    const list = await ptax('tx', 'list', '--lang', 'es');
    expect(list.stdout).toContain('vote         Enmiendas de noviembre de 2025 (requiere --county)\n');
    // The calculator's description from rules/tx/state.yaml `description.es`.
    expect(list.stdout).toContain('\n    Lo que ahorran en esta propiedad las enmiendas constitucionales de noviembre de 2025 (Proposiciones 11 y 13:');
    expect((await ptax('tx', 'list')).stdout).toContain('\n    What the November 2025 constitutional amendments (Propositions 11 and 13:');
    const de = await ptax('counties', '--state', 'DE', '--lang', 'es');
    expect(de.stdout.trimEnd().split('\n').at(-1)).toBe('3 condados');
    expect((await ptax('counties', '--state', 'DE')).stdout.trimEnd().split('\n').at(-1)).toBe('3 counties');
    const ny = await ptax('ny', 'list', '--lang', 'es');
    expect(ny.stdout).toBe('NY no tiene calculadoras especializadas\n');
  });
});
