/**
 * The engine's own texts, in English and Spanish, through i18next: the messages of input
 * errors (a state, county, year or number that cannot be used) and the notes the engine
 * adds itself (rules carried forward, a county rate given). The rule files hold the
 * rest (validations, notes, labels), each with its en/es text.
 *
 * An error made with `inputError` keeps its message key and values, so `localized` can
 * give it again in the language of the output (`ptax --lang es`, the Spanish calculator).
 * The message itself is always English first, for logs and for callers that do not ask.
 */
import i18next from 'i18next';
import { PtaxError } from './errors.js';
import type { Label, Lang } from './types.js';

const en = {
  unknownState: 'Unknown state "{{code}}": choose one of {{choices}}',
  missingCounty: 'A county is required',
  unknownCounty: 'Unknown county "{{county}}" in {{state}}. (see: ptax counties --state {{state}})',
  unknownCountyHint: 'Unknown county "{{county}}" in {{state}}. Did you mean {{hint}}? (see: ptax counties --state {{state}})',
  ambiguousCounty: '"{{county}}" could be more than one county in {{state}}: {{names}}. Please write the full name',
  yearWhole: 'Year must be a whole number, like {{last}}',
  yearFourDigits: 'Year must be a four-digit year, like 2026 (got "{{raw}}")',
  yearNotCovered: 'No rules for {{year}}; years available: {{years}}',
  unknownCalculator: '{{state}} has no calculator "{{name}}": choose one of {{names}}',
  noCalculators: '{{state}} has no specialised calculators',
  valueNotNumber: 'Market value must be a number',
  notNumber: '{{field}} must be a number',
  notNumberLike: '{{field}} must be a number, like 350000 or 1,250,000 (got "{{raw}}")',
  amountTooLarge: '{{field}} is too large to be an amount in dollars (got "{{raw}}")',
  amountNegative: '{{field}} cannot be negative (got "{{raw}}")',
  rateRange: 'County rate must be a percent from 0 to 100, like 1.25 (got {{rate}})',
  badDate: 'Date must be a real date as YYYY-MM-DD, like 2026-03-15 (got "{{raw}}")',
  badStar: 'star must be none, basic or enhanced (got "{{raw}}")',
  badBoolean: '{{field}} must be true/false, yes/no, 1/0 or empty (got {{raw}})',
  badField: '{{field}} must be {{kind}} (got {{raw}})',
  'kind.bool': 'true or false',
  'kind.number': 'a number',
  'kind.text': 'text',
  // Notes.
  rulesCarried: 'Rules for {{year}} are not published yet; {{last}} values are carried forward as the estimate',
  rateGiven: "County rate {{given}} used as given, instead of the county's {{own}}",
  rateGivenNoOwn: 'County rate {{given}} used as given (the county has no rate of its own)',
  rateCarriedBack: "The county's {{first}} rates are the earliest in the data; they stand in for {{year}}",
};
export type MessageKey = keyof typeof en;

const es: Record<MessageKey, string> = {
  unknownState: 'Estado desconocido "{{code}}": elija uno de {{choices}}',
  missingCounty: 'Se necesita un condado',
  unknownCounty: 'Condado desconocido "{{county}}" en {{state}}. (vea: ptax counties --state {{state}})',
  unknownCountyHint: 'Condado desconocido "{{county}}" en {{state}}. ¿Quiso decir {{hint}}? (vea: ptax counties --state {{state}})',
  ambiguousCounty: '"{{county}}" puede ser más de un condado en {{state}}: {{names}}. Escriba el nombre completo',
  yearWhole: 'El año debe ser un número entero, como {{last}}',
  yearFourDigits: 'El año debe tener cuatro cifras, como 2026 (se recibió "{{raw}}")',
  yearNotCovered: 'No hay reglas para {{year}}; años disponibles: {{years}}',
  unknownCalculator: '{{state}} no tiene la calculadora "{{name}}": elija una de {{names}}',
  noCalculators: '{{state}} no tiene calculadoras especializadas',
  valueNotNumber: 'El valor de mercado debe ser un número',
  notNumber: '{{field}}: debe ser un número',
  notNumberLike: '{{field}}: debe ser un número, como 350000 o 1,250,000 (se recibió "{{raw}}")',
  amountTooLarge: '{{field}}: es demasiado grande para ser un importe en dólares (se recibió "{{raw}}")',
  amountNegative: '{{field}}: no puede ser negativo (se recibió "{{raw}}")',
  rateRange: 'La tasa del condado debe ser un porcentaje de 0 a 100, como 1.25 (se recibió {{rate}})',
  badDate: 'La fecha debe ser una fecha real con el formato AAAA-MM-DD, como 2026-03-15 (se recibió "{{raw}}")',
  badStar: 'star debe ser none, basic o enhanced (se recibió "{{raw}}")',
  badBoolean: '{{field}} debe ser true/false, yes/no, 1/0 o vacío (se recibió {{raw}})',
  badField: '{{field}} debe ser {{kind}} (se recibió {{raw}})',
  'kind.bool': 'true o false',
  'kind.number': 'un número',
  'kind.text': 'texto',
  rulesCarried: 'Las reglas de {{year}} aún no se han publicado; se usan las de {{last}} como estimación',
  rateGiven: 'Se usa la tasa del condado indicada, {{given}}, en lugar de la del condado, {{own}}',
  rateGivenNoOwn: 'Se usa la tasa del condado indicada, {{given}} (el condado no tiene tasa propia)',
  rateCarriedBack: 'Las tasas de {{first}} del condado son las más antiguas de los datos; se usan para {{year}}',
};

// Keys hold dots ("field.value") but are flat: no key separator; texts are not HTML.
// Made on the first message, not at load: initialising i18next costs ~4 ms of CPU, and
// most `ptax calc` runs make no message at all (issue 23: CLI start-up).
let i18n: ReturnType<typeof i18next.createInstance> | undefined;
function texts(): ReturnType<typeof i18next.createInstance> {
  if (!i18n) {
    i18n = i18next.createInstance();
    void i18n.init({
      resources: { en: { engine: en }, es: { engine: es } },
      lng: 'en',
      fallbackLng: 'en',
      ns: ['engine'],
      defaultNS: 'engine',
      keySeparator: false,
      nsSeparator: false,
      initAsync: false,
      interpolation: { escapeValue: false },
    });
  }
  return i18n;
}

/**
 * A value in a message: as it is; (`{ key }`) another message in the same language; or
 * (`{ text }`) a text in both languages, such as an input's name (rules/inputs.yaml
 * `message_name` or its label: engine/core/cells.ts `inputName`).
 */
export type MessageValue = string | number | { key: MessageKey } | { text: Label };
export type MessageValues = Record<string, MessageValue>;

/**
 * A text in a language. The texts made are remembered (a few thousand, then it starts
 * again): i18next takes about 10 µs a text, and a batch repeats the same few messages
 * (one per bad cell value, one per place whose rules are carried forward).
 */
export function message(key: MessageKey, values: MessageValues = {}, lang: Lang = 'en'): string {
  const id = `${lang}\u0001${key}\u0001${JSON.stringify(values)}`;
  const known = made.get(id);
  if (known !== undefined) return known;
  const v: Record<string, string | number> = {};
  for (const [k, x] of Object.entries(values)) v[k] = typeof x === 'object' ? ('text' in x ? x.text[lang] : message(x.key, {}, lang)) : x;
  const text = texts().t(key, { ...v, lng: lang });
  if (made.size >= 4096) made.clear();
  made.set(id, text);
  return text;
}
const made = new Map<string, string>();

/** A percent as the notes write it: 1.25% (English), 1.25 % (Spanish); at most 4 decimals. */
export const percent = (x: number, lang: Lang = 'en'): string => `${Number(x.toFixed(4))}${lang === 'es' ? ' %' : '%'}`;

/** An input error whose message can be given again in another language (see `localized`). */
export class InputError extends PtaxError {
  constructor(
    code: string,
    readonly key: MessageKey,
    readonly values: MessageValues = {},
    details?: unknown,
  ) {
    super(code, message(key, values), details);
  }
}

export const inputError = (code: string, key: MessageKey, values: MessageValues = {}, details?: unknown): InputError =>
  new InputError(code, key, values, details);

/** The same error with its message in `lang` (an error without a key is returned as it is). */
export function localized<T>(e: T, lang: Lang | undefined): T | PtaxError {
  if (!lang || lang === 'en' || !(e instanceof InputError)) return e;
  return new PtaxError(e.code, message(e.key, e.values, lang), e.details);
}
