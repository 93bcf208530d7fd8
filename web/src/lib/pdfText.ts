/**
 * Words of the PDF report that the i18n files do not have yet, in English and Spanish.
 * They are meant to move into web/src/i18n/en.ts and es.ts under `pdf`; until then the
 * report asks i18next for `pdf.<key>` with these as the default value (`pdfT`), so once
 * merged the i18n files win and nothing else changes.
 */
import type { TFunction } from 'i18next';
import type { Lang } from './format.js';

export const pdfText = {
  en: {
    page: 'Page {{page}} of {{pages}}',
    continued: '{{title}} (continued)',
    keyFigures: 'Key figures',
    values: 'Assessed and taxable values',
    stateAverage: '{{state}} average effective rate',
    compared: 'Your rate compared with the state average',
    above: '{{points}} percentage points above',
    below: '{{points}} percentage points below',
    same: 'The same as the average',
    potentialSavings: 'Potential savings with exemptions',
    sources: 'Sources',
  },
  es: {
    page: 'Página {{page}} de {{pages}}',
    continued: '{{title}} (continuación)',
    keyFigures: 'Cifras principales',
    values: 'Valores tasados e imponibles',
    stateAverage: 'Tasa efectiva promedio de {{state}}',
    compared: 'Su tasa comparada con el promedio estatal',
    above: '{{points}} puntos porcentuales por encima',
    below: '{{points}} puntos porcentuales por debajo',
    same: 'Igual al promedio',
    potentialSavings: 'Ahorro potencial con exenciones',
    sources: 'Fuentes',
  },
} as const;

export type PdfTextKey = keyof (typeof pdfText)['en'];

/** `pdf.<key>` through i18next, with this file's text in `lang` as the default. */
export function pdfT(t: TFunction, lang: Lang, key: PdfTextKey, vars: Record<string, unknown> = {}): string {
  return t(`pdf.${key}`, { ...vars, defaultValue: pdfText[lang][key] }) as string;
}
