/**
 * The Spanish words of the CLI's human output (cli/format.ts `CliTexts`; the English ones
 * are there). Read only by `loadTexts('es')`, for `--lang es`: in the CLI bundle this file
 * is a chunk of its own that an English run does not load. The rows' labels come from the
 * rule files (rules/results.yaml `label.es`, or `cli.es` where the table says it shorter).
 * Amounts and percents are written as in English: es-MX writes them as en-US does
 * (web/src/lib/format.ts), as the Spanish edition of the web shows them.
 */
import { CITATIONS_ES } from '../web/src/i18n/citations.es.js';
import type { CliTexts } from './format.js';

/** A product convention's citation (docs/sources.md), named in Spanish by what it explains. */
const CONVENTION = /^ptax, how it works: /;
/** The Spanish titles of the documents cited, by their English title (made on the first citation). */
let titles: Map<string, string> | undefined;

/** The detail objects' state names in Spanish (the others are written alike). */
const DETAIL_NAMES: Record<string, string> = { newYork: 'Nueva York' };

export const ES: CliTexts = {
  head: (x) =>
    `${x.place} · reglas: ${x.program}, ${x.fiscal ? 'año fiscal' : 'año tributario'} ${x.year} · valor ${x.value}${x.propertyClass ? ` · ${x.propertyClass}` : ''}`,
  calculatorHead: (x) => `${x.title} · ${x.place} · ${x.years ? `años ${x.years.join(' → ')}` : `año ${String(x.year)}`}`,
  // As the Spanish web names places (web/src/lib/places.ts countyName, web/src/i18n/es.ts `place`).
  place: (county) => (county === 'New York City' ? 'Ciudad de Nueva York' : county.replace(/^(.+) County$/, 'Condado de $1')),
  notes: 'Notas:',
  saves: (name) => `${name} ahorra`,
  detail: (key) => `Detalle de ${DETAIL_NAMES[key] ?? `${key[0]!.toUpperCase()}${key.slice(1)}`}:`,
  yes: 'sí',
  no: 'no',
  // As the Spanish web shows them (web/src/i18n/es.ts `value`; the classes as rules/inputs.yaml names them).
  values: {
    none: 'ninguno',
    basic: 'básico',
    enhanced: 'mejorado',
    delinquent: 'en mora',
    discount: 'periodo de descuento',
    onTime: 'a tiempo',
    current: 'al corriente',
    notYetBilled: 'aún no facturado',
    class1: 'clase 1',
    class2: 'clase 2',
    class3: 'clase 3',
    class4: 'clase 4',
  },
  howCalculated: 'Cómo se calculó:',
  rule: 'regla',
  inForce: (effective, file) => `vigente desde ${effective}; ${file}`,
  // As the Spanish web gives a source (web/src/lib/citations.ts): a document by its Spanish
  // title (web/src/i18n/citations.es.ts), a product convention by what it explains; a title
  // with no Spanish yet as it is.
  citation: (title, label) =>
    CONVENTION.test(title) ? (label?.es ? `ptax, cómo funciona: ${label.es}` : title) : ((titles ??= new Map(CITATIONS_ES)).get(title) ?? title),
  needsCounty: ' (requiere --county)',
  noCalculators: (state) => `${state} no tiene calculadoras especializadas`,
  counties: (n, aliases) => `${n} condados${aliases.length ? `; también: ${aliases.join(', ')}` : ''}`,
  row: (f) => (f.cli === true || f.cli === undefined ? f.label.es : f.cli.es),
};
