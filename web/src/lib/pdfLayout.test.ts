/**
 * The PDF report's layout (lib/pdfLayout.ts) with jspdf's own Helvetica metrics, and the
 * PDF jspdf writes from it (lib/pdf.ts) read back by a small text extractor. Figures are
 * those of fixtures/ny/ny-outside-exemptions.yaml "Albany senior citizen 50%", worked by
 * hand there: $300,000 in Albany County (1.8937%) with the senior citizen exemption.
 */
import { describe, expect, it } from 'vitest';
import { jsPDF } from 'jspdf';
import { nyEdition, statePackage } from '../test/edition.js';
import { toBundle } from './stateData.js';
import { createI18n } from '../i18n/index.js';
import es from '../i18n/es.js';
import { calculate, defaultForm, makeEdition, type FormValues } from './model.js';
import { reportSections, type ReportData } from './reportData.js';
import { layoutReport, pdfSafe, barPercents, PAGE, type PdfLayout, type TextOp, type RectOp } from './pdfLayout.js';
import { buildPdf, measureWith, type PdfReport } from './pdf.js';
import type { Lang } from './format.js';

const edition = nyEdition();
const measure = measureWith(new jsPDF({ unit: 'mm', format: 'a4' }));
const form = (over: Partial<FormValues>): FormValues => ({ ...defaultForm(edition), ...over });

function report(lang: Lang, v: FormValues): PdfReport {
  const i18n = createI18n(lang, lang === 'es' ? { es } : {});
  const r = calculate(edition, v, lang);
  const data = reportSections(i18n.t, r, v, lang, edition.county(v.county)?.needsPropertyType ? edition.classRates(edition.county(v.county)!) : {}, edition);
  return { ...data, fileName: 'test' };
}

const texts = (l: PdfLayout) => l.pages.flatMap((p) => p.filter((o): o is TextOp => o.op === 'text'));
const allText = (l: PdfLayout) =>
  texts(l)
    .map((o) => o.text)
    .join('\n');
/** Texts of a page, each line; NBSP written as a space (for reading). */
const pageLines = (l: PdfLayout, i: number) => l.pages[i]!.filter((o): o is TextOp => o.op === 'text').map((o) => o.text.replace(/\u00a0/g, ' '));

/** Every text between the left and right margins and inside the page; content above the footer. */
function expectInside(l: PdfLayout) {
  const eps = 0.01;
  for (const [i, page] of l.pages.entries()) {
    for (const o of page) {
      if (o.op === 'text') {
        const left = o.align === 'left' ? o.x : o.x - o.width;
        const right = o.align === 'left' ? o.x + o.width : o.x;
        expect(left, `page ${i + 1}: "${o.text}"`).toBeGreaterThanOrEqual(l.margin - eps);
        expect(right, `page ${i + 1}: "${o.text}"`).toBeLessThanOrEqual(l.width - l.margin + eps);
        expect(o.y, `page ${i + 1}: "${o.text}"`).toBeGreaterThan(8);
        expect(o.y, `page ${i + 1}: "${o.text}"`).toBeLessThan(l.height - 8);
        if (!o.role) expect(o.y, `page ${i + 1}: "${o.text}" above the footer`).toBeLessThanOrEqual(l.bottom);
        expect(pdfSafe(o.text)).toBe(o.text);
      } else if (o.op === 'rect') {
        expect(o.x).toBeGreaterThanOrEqual(0);
        expect(o.x + o.w).toBeLessThanOrEqual(l.width + eps);
        if (o.y > 0) expect(o.y + o.h, `page ${i + 1}: a rectangle above the footer`).toBeLessThanOrEqual(l.bottom + eps);
      }
    }
  }
}

/**
 * The text of a PDF as jspdf writes it (uncompressed): the strings of its Tj operators,
 * one per line, bytes read as WinAnsi. A string written with two-byte codes (what jspdf
 * does when a character is outside WinAnsi) comes out with NUL characters.
 */
function extractText(pdf: string): string[] {
  const WIN = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
  const out: string[] = [];
  for (const m of pdf.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/gs)) {
    const raw = m[1]!.replace(/\\([0-7]{1,3}|.)/gs, (_, e: string) =>
      /^[0-7]+$/.test(e) ? String.fromCharCode(parseInt(e, 8)) : (({ n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e] ?? e),
    );
    out.push(
      [...raw]
        .map((c) => {
          const b = c.charCodeAt(0);
          return b >= 0x80 && b < 0xa0 ? WIN[b - 0x80] : c;
        })
        .join(''),
    );
  }
  return out;
}

describe('the report laid out (Albany County, $300,000, senior citizen exemption)', () => {
  const v = form({ county: 'Albany County', homeValue: 300000, seniorCitizen: true });
  const en = layoutReport(report('en', v), measure);

  it('opens with the header band: product, edition, county and the year of its rates, date', () => {
    const band = en.pages[0]![0] as RectOp;
    expect(band).toMatchObject({ op: 'rect', x: 0, y: 0, w: PAGE.width, fill: [11, 61, 145] });
    const inBand = texts({ ...en, pages: [en.pages[0]!] })
      .filter((o) => o.y < band.h)
      .map((o) => o.text);
    expect(inBand).toContain('ptax');
    expect(inBand).toContain('New York Property Tax Calculator for New Yorkers');
    expect(inBand.join(' ')).toMatch(/Albany County, 202\d rates/);
    expect(inBand.join(' ')).toMatch(/^.*Date: \w+ \d+, \d{4}/m);
  });

  it('writes every figure of the result (hand-checked in the fixture)', () => {
    const lines = pageLines(en, 0).concat(en.pages.slice(1).flatMap((_, i) => pageLines(en, i + 1)));
    // Key figures: annual 2,840.55, monthly 236.71, rate 0.94685%, against the state average 1.54% (rules/ny/hints.yaml).
    for (const s of ['$2,841', '$237', '0.95%', '1.54%', '0.59 percentage points below', '$150,000', '$852']) expect(lines).toContain(s);
    // Levies 1,420.28 / 852.17 / 426.08 / 142.03; before exemptions 5,681.10, after 2,840.55.
    for (const s of ['$1,420', '$852', '$426', '$142', '$5,681']) expect(lines).toContain(s);
    // Base and final assessed value, the exemption's saving.
    expect(lines.filter((s) => s === '$300,000').length).toBeGreaterThanOrEqual(2);
    expect(lines.filter((s) => s === '$2,841').length).toBeGreaterThanOrEqual(4);
    const text = allText(en);
    for (const label of [
      'Key figures',
      'Where your tax goes',
      'Before and after exemptions',
      'Exemptions applied',
      'Senior citizen',
      'Your inputs',
      'Estimates only',
    ])
      expect(text).toContain(label);
  });

  it('draws the levy bars scaled to the largest (school) with the figure after each bar', () => {
    const page = en.pages[0]!;
    const head = page.findIndex((o) => o.op === 'text' && o.text === 'Where your tax goes');
    const bars = page
      .slice(head)
      .filter((o): o is RectOp => o.op === 'rect' && o.h < 6)
      .slice(0, 4);
    expect(bars.map((b) => b.fill)).toEqual([
      [11, 61, 145],
      [37, 99, 235],
      [15, 118, 110],
      [146, 64, 14],
    ]);
    // 1,420.28 : 852.17 : 426.08 : 142.03 = 100 : 60 : 30 : 10.
    const w = bars.map((b) => b.w / bars[0]!.w);
    expect(w[1]).toBeCloseTo(0.6, 2);
    expect(w[2]).toBeCloseTo(0.3, 2);
    expect(w[3]).toBeCloseTo(0.1, 2);
    const school = page.find((o): o is TextOp => o.op === 'text' && o.text === '$1,420')!;
    expect(school.x).toBeCloseTo(bars[0]!.x + bars[0]!.w + 1.5, 5);
  });

  it('keeps every text inside the margins, in WinAnsi, and numbers the pages', () => {
    expectInside(en);
    const n = en.pages.length;
    en.pages.forEach((_, i) => expect(pageLines(en, i)).toContain(`Page ${i + 1} of ${n}`));
  });

  it('is in Spanish for the Spanish page, accents included', () => {
    const esLayout = layoutReport(report('es', v), measure);
    expectInside(esLayout);
    const text = allText(esLayout).replace(/\u00a0/g, ' ');
    for (const s of [
      'Calculadora',
      'Cifras principales',
      'A dónde va su impuesto',
      'Antes y después de las exenciones',
      'Impuesto a la propiedad anual',
      'Tasa efectiva promedio de Nueva York',
      'Condado de Albany',
      'Página 1 de ',
      'Fecha:',
      'puntos porcentuales por debajo',
    ])
      expect(text).toContain(s);
    expect(text).not.toContain('Page 1 of');
    expect(text).not.toContain('Key figures');
  });
});

describe('New York City: the detail object', () => {
  it('writes each detail row of the nyc object with its value', () => {
    const v = form({
      county: 'Kings County',
      propertyType: 'class2',
      homeValue: 900000,
      homestead: true,
      over65: true,
      seniorIncome: 50000,
      seniorCitizen: true,
      veteranDisability: 40,
    });
    const data = report('en', v);
    const l = layoutReport(data, measure);
    expectInside(l);
    expect(data.details[0]!.title).toBe('New York City details');
    expect(data.details[0]!.rows.length).toBeGreaterThan(3);
    const text = allText(l)
      .replace(/\u00a0/g, ' ')
      .replace(/\s*\n\s*/g, ' ');
    for (const [label, value] of data.details.flatMap((d) => d.rows)) {
      expect(text).toContain(label);
      expect(text).toContain(value);
    }
    expect(data.exemptions.rows.length).toBeGreaterThanOrEqual(2);
    for (const [label, value] of data.exemptions.rows) {
      expect(text).toContain(label);
      expect(text).toContain(value);
    }
  });
});

describe('Florida: the two-tier detail object (fixtures/fl/fl-homestead.yaml, Miami-Dade $300,000, no exemptions)', () => {
  const fl = makeEdition(toBundle(statePackage('FL')));
  const v: FormValues = { ...defaultForm(fl), county: 'Miami-Dade County', homeValue: 300000 };
  const i18n = createI18n('en');
  const data = { ...reportSections(i18n.t, calculate(fl, v, 'en'), v, 'en', {}, fl), fileName: 'x' };
  const l = layoutReport(data, measure);
  const lines = l.pages.flatMap((_, i) => pageLines(l, i));

  it('has the Florida header, the Florida average and the florida rows by hand', () => {
    expectInside(l);
    expect(lines).toContain('Florida Property Tax Calculator for Floridians');
    // Miami-Dade, DOR 2025 millage (nominal_rates_fl_2025.csv): school 6.499 + 0.134 = 6.633 mills, the rest 11.8563.
    // Annual 300,000 × 1.84893% = 5,546.79 (written $5,547); against Florida's 0.80% (rules/fl/split.yaml): 1.05 points above.
    for (const s of ['$5,547', 'Florida average effective rate', '0.80%', '1.05 percentage points above', 'Florida details: school and non-school taxes'])
      expect(
        lines.some((x) => x === s || x.startsWith(`${s}`)),
        s,
      ).toBe(true);
    // School 300,000 × 0.6633% = 1,989.90; non-school 300,000 × 1.18563% = 3,556.89; potential savings (homestead):
    // 25,000 × 0.6633% + 50,722 × 1.18563% = 165.83 + 601.38 = 767.20.
    for (const s of ['0.66%', '$1,990', '1.19%', '$3,557', '$767']) expect(lines).toContain(s);
  });

  it('draws no before/after chart without exemption savings, and says no exemptions were applied', () => {
    expect(data.charts.map((c) => c.key)).toEqual(['levies']);
    expect(lines).not.toContain('Before and after exemptions');
    expect(lines).toContain('No exemptions applied.');
  });
});

describe('long tables and text across pages', () => {
  const base = report('es', form({ county: 'Albany County', homeValue: 300000, seniorCitizen: true }));
  const long =
    'Exención para veteranos discapacitados con una etiqueta muy larga que debe partirse en varias líneas dentro de su celda sin salirse de la página';
  const rows: Array<[string, string]> = Array.from({ length: 90 }, (_, i) => [`${i + 1}. ${i % 7 === 0 ? long : 'Fila'}`, `$${(i + 1) * 1000}`]);
  const big: ReportData = {
    ...base,
    details: [{ title: 'Detalles de prueba', rows }],
    notes: Array.from({ length: 30 }, (_, i) => `Nota ${i + 1}: ¿Cuánto paga? ¡Mucho! Año, señal, pingüino, último, ≥ 65 años, 1,80\u202f% — ${long}`),
  };
  const l = layoutReport(big, measure);

  it('never draws past the margins or the bottom, with the table title repeated on the next page', () => {
    expect(l.pages.length).toBeGreaterThanOrEqual(4);
    expectInside(l);
    const pagesWithRows = l.pages.map((p, i) => ({ i, has: p.some((o) => o.op === 'text' && /^\d+\. /.test(o.text)) })).filter((p) => p.has);
    expect(pagesWithRows.length).toBeGreaterThan(1);
    for (const { i } of pagesWithRows.slice(1)) expect(pageLines(l, i)).toContain('Detalles de prueba (continuación)');
  });

  it('keeps each row whole on one page, its value beside its first line', () => {
    for (const [label, value] of rows) {
      const number = label.split(' ')[0]!;
      const where = l.pages.flatMap((p, i) => p.filter((o): o is TextOp => o.op === 'text' && o.text.startsWith(`${number} `)).map((o) => ({ i, o })));
      expect(where, label).toHaveLength(1);
      const val = l.pages[where[0]!.i]!.find((o): o is TextOp => o.op === 'text' && o.text === value);
      expect(val, value).toBeDefined();
      expect(val!.y).toBeCloseTo(where[0]!.o.y, 5);
    }
  });

  it('wraps a long label within its cell (58% of the width)', () => {
    const lines = texts(l).filter((o) => o.text.startsWith('1. Exención'));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.width).toBeLessThanOrEqual((PAGE.width - 2 * PAGE.margin) * 0.58);
    expect(allText(l)).toContain('sin salirse de la');
  });

  it('writes the PDF with one-byte WinAnsi text: á é í ó ú ñ ü ¿ ¡ — read back as written', () => {
    const doc = buildPdf(jsPDF, { ...big, fileName: 'x' });
    const raw = doc.output();
    const lines = extractText(raw);
    expect(lines.some((s) => s.includes('\u0000'))).toBe(false);
    const text = lines.join('\n');
    for (const s of ['á', 'é', 'í', 'ó', 'ú', 'ñ', 'ü', '¿Cuánto paga? ¡Mucho!', '—', 'Página 1 de ', 'A dónde va su impuesto', 'Exención'])
      expect(text).toContain(s);
    expect(text).toContain(`Página ${l.pages.length} de ${l.pages.length}`);
    expect(doc.getNumberOfPages()).toBe(l.pages.length);
  });
});

describe('pdfSafe and bar lengths', () => {
  it('keeps Latin-1 and WinAnsi, maps thin spaces and symbols the font lacks', () => {
    expect(pdfSafe('¿Año? ¡Sí! — “x” 1,80\u202f% ≥ 5 ≤ 6 − 1 日')).toBe('¿Año? ¡Sí! — “x” 1,80\u00a0% >= 5 <= 6 - 1 ?');
  });
  it('scales bars to the largest, at least 1% for a figure above 0', () => {
    expect(barPercents([200, 100, 0, 0.5])).toEqual([100, 50, 0, 1]);
    expect(barPercents([0, 0])).toEqual([0, 0]);
  });
});

describe('the year of the rates, said one way (issue 24)', () => {
  it('the PDF header and the share text name the same year as the edition: "2025 rates" / "tarifas de 2025" for Albany', async () => {
    const { shareText } = await import('./report.js');
    const v = form({ county: 'Albany County', homeValue: 300000 });
    // Albany is on ny.outside, whose latest year in the rules is 2025: the edition's rates year too.
    expect(edition.ratesYear).toBe(2025);
    for (const [lang, words] of [
      ['en', '2025 rates'],
      ['es', 'tarifas de 2025'],
    ] as const) {
      const i18n = createI18n(lang, lang === 'es' ? { es } : {});
      const r = calculate(edition, v, lang);
      expect(r.year).toBe(2025);
      expect(report(lang, v).header.place).toBe(lang === 'en' ? `Albany County, ${words}` : `Condado de Albany, ${words}`);
      expect(shareText(i18n.t, r, v, lang)).toContain(`(${words})`);
    }
  });
});
