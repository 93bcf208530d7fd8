/**
 * The engine's own texts in English and Spanish (engine/core/messages.ts): every message has
 * both, input errors keep what they need to be given again in the output's language, and
 * `prepare` / `calculate` / `run` give their input errors in the language asked for.
 */
import { describe, expect, it } from 'vitest';
import { readBundle } from '../build/bundle.js';
import { Calculator, type CalcInput } from './calculate.js';
import { PtaxError } from './errors.js';
import { InputError, inputError, localized, message, percent } from './messages.js';
import { inputName } from './cells.js';

const calc = new Calculator(readBundle('dist/rules/bundle.json'));
const ALBANY: CalcInput = { state: 'NY', county: 'Albany', value: 300000 };

/** The error a call throws, as [code, message]. */
function thrown(f: () => unknown): [string, string] {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(PtaxError);
    return [(e as PtaxError).code, (e as Error).message];
  }
  throw new Error('expected an error');
}

describe('message', () => {
  it('fills the values in, in English by default and in Spanish when asked', () => {
    expect(message('yearNotCovered', { year: 1999, years: '2025, 2026' })).toBe('No rules for 1999; years available: 2025, 2026');
    expect(message('yearNotCovered', { year: 1999, years: '2025, 2026' }, 'es')).toBe('No hay reglas para 1999; años disponibles: 2025, 2026');
  });

  it('a value that is another message is given in the same language; texts are not HTML-escaped', () => {
    // rules/inputs.yaml: sellerTax's message_name {en: Seller's tax, es: Impuesto del vendedor}.
    expect(message('notNumber', { field: inputName('sellerTax') })).toBe("Seller's tax must be a number");
    expect(message('notNumber', { field: inputName('sellerTax') }, 'es')).toBe('Impuesto del vendedor: debe ser un número');
    // Without a message_name, the label: taxAmount {en: Tax amount, es: Monto del impuesto}.
    expect(message('notNumber', { field: inputName('taxAmount') }, 'es')).toBe('Monto del impuesto: debe ser un número');
    expect(message('badStar', { raw: '<b>"x"&' })).toBe('star must be none, basic or enhanced (got "<b>"x"&")');
  });

  it('texts made are remembered by language, key and values (and the memory is bounded): the same call, the same text', () => {
    const a = message('badDate', { raw: '2026-02-30' });
    expect(message('badDate', { raw: '2026-02-30' })).toBe(a);
    expect(message('badDate', { raw: '2026-02-30' }, 'es')).toBe(
      'La fecha debe ser una fecha real con el formato AAAA-MM-DD, como 2026-03-15 (se recibió "2026-02-30")',
    );
    expect(message('badDate', { raw: '2026-02-31' })).toBe('Date must be a real date as YYYY-MM-DD, like 2026-03-15 (got "2026-02-31")');
    for (let i = 0; i < 5000; i++) expect(message('yearWhole', { last: i })).toBe(`Year must be a whole number, like ${i}`);
    expect(message('badDate', { raw: '2026-02-30' })).toBe(a);
  });

  it('percent: at most 4 decimals; Spanish puts a space before %', () => {
    expect(percent(1.23456789)).toBe('1.2346%');
    expect(percent(2, 'es')).toBe('2 %');
    expect(percent(0.5, 'en')).toBe('0.5%');
  });
});

describe('input errors in the output language', () => {
  it('inputError keeps the code, the English message, the key and the values; localized gives it in Spanish', () => {
    const e = inputError('INVALID_RATE', 'rateRange', { rate: 150 }, { extra: 1 });
    expect(e).toBeInstanceOf(InputError);
    expect([e.code, e.message, e.details]).toEqual(['INVALID_RATE', 'County rate must be a percent from 0 to 100, like 1.25 (got 150)', { extra: 1 }]);
    const es = localized(e, 'es') as PtaxError;
    expect([es.code, es.message, es.details]).toEqual([
      'INVALID_RATE',
      'La tasa del condado debe ser un porcentaje de 0 a 100, como 1.25 (se recibió 150)',
      { extra: 1 },
    ]);
    expect(localized(e, 'en')).toBe(e);
    expect(localized(e, undefined)).toBe(e);
  });

  it('an error without a message key (a rule validation, already in its language) is returned as it is', () => {
    const e = new PtaxError('INVALID_VALUE', 'El valor de mercado debe ser mayor que 0');
    expect(localized(e, 'es')).toBe(e);
    const other = new Error('x');
    expect(localized(other, 'es')).toBe(other);
  });

  it('prepare and calculate: state, county, year and number errors in Spanish with lang es, English without', () => {
    const cases: Array<[CalcInput, string, string, string]> = [
      [
        { ...ALBANY, state: 'XX' },
        'UNKNOWN_STATE',
        'Unknown state "XX": choose one of AK, AL, AR, AZ, CA, CO, CT, DC, DE, FL, GA, HI, IA, ID, IL, IN, KS, KY, LA, MA, MD, ME, MI, MN, MO, MS, MT, NC, ND, NE, NH, NJ, NM, NV, NY, OH, OK, OR, PA, PR, RI, SC, SD, TN, TX, UT, VA, VT, WA, WI, WV, WY, HUB',
        'Estado desconocido "XX": elija uno de AK, AL, AR, AZ, CA, CO, CT, DC, DE, FL, GA, HI, IA, ID, IL, IN, KS, KY, LA, MA, MD, ME, MI, MN, MO, MS, MT, NC, ND, NE, NH, NJ, NM, NV, NY, OH, OK, OR, PA, PR, RI, SC, SD, TN, TX, UT, VA, VT, WA, WI, WV, WY, HUB',
      ],
      [
        { ...ALBANY, county: 'Albny' },
        'UNKNOWN_COUNTY',
        'Unknown county "Albny" in NY. Did you mean Albany? (see: ptax counties --state NY)',
        'Condado desconocido "Albny" en NY. ¿Quiso decir Albany? (vea: ptax counties --state NY)',
      ],
      [{ ...ALBANY, county: '' }, 'MISSING_COUNTY', 'A county is required', 'Se necesita un condado'],
      [{ ...ALBANY, year: 1999 }, 'YEAR_NOT_COVERED', 'No rules for 1999; years available: 2025', 'No hay reglas para 1999; años disponibles: 2025'],
      [{ ...ALBANY, year: 2025.5 }, 'INVALID_YEAR', 'Year must be a whole number, like 2025', 'El año debe ser un número entero, como 2025'],
      [{ ...ALBANY, value: Number.NaN }, 'INVALID_VALUE', 'Market value must be a number', 'El valor de mercado debe ser un número'],
      [{ ...ALBANY, purchasePrice: Infinity }, 'INVALID_NUMBER', 'Purchase price must be a number', 'Precio de compra: debe ser un número'],
    ];
    for (const [input, code, en, es] of cases) {
      expect(
        thrown(() => calc.prepare(input)),
        en,
      ).toEqual([code, en]);
      expect(
        thrown(() => calc.calculate(input)),
        en,
      ).toEqual([code, en]);
      expect(
        thrown(() => calc.calculate(input, { lang: 'es' })),
        en,
      ).toEqual([code, es]);
    }
    // The details stay: the county's suggestions.
    try {
      calc.prepare({ ...ALBANY, county: 'Albny' }, 'es');
    } catch (e) {
      expect((e as PtaxError).details).toEqual({ suggestions: ['Albany'] });
    }
  });

  it('run: an unknown calculator in Spanish', () => {
    expect(thrown(() => calc.run('nope', { state: 'TX', county: '', value: 1 }, { lang: 'es' }))).toEqual([
      'UNKNOWN_CALCULATOR',
      'TX no tiene la calculadora "nope": elija una de payment, vote',
    ]);
    expect(thrown(() => calc.run('nope', { state: 'TX', county: '', value: 1 }))).toEqual([
      'UNKNOWN_CALCULATOR',
      'TX has no calculator "nope": choose one of payment, vote',
    ]);
  });

  it('the engine notes: rules carried forward, and a county rate given', () => {
    expect(calc.calculate({ ...ALBANY, year: 2027 }, { lang: 'es' }).notes).toEqual([
      'Las reglas de 2027 aún no se han publicado; se usan las de 2025 como estimación',
    ]);
    expect(calc.calculate({ ...ALBANY, year: 2027 }).notes).toEqual(['Rules for 2027 are not published yet; 2025 values are carried forward as the estimate']);
  });
});
