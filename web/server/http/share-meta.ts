/**
 * Link previews of share links: a shared address carries a calculation's inputs
 * (`/?county=harris&value=400000&homestead=true`, engine/core/share.ts), and sites that preview
 * links (Facebook, messengers) read the page's Open Graph tags without running its script.
 * For such an address the home page is sent with a title and description that carry the
 * figure, computed here by the same engine and rules as the page (dist/rules/bundle.json).
 * Nothing is stored; an address that does not compute gets the page as built.
 */
import { readFileSync, statSync } from 'node:fs';
import { readBundle } from '../../../engine/node.js';
import { Calculator } from '../../../engine/node.js';
import { inputsFromQuery } from '../../../engine/node.js';

let calculator: Calculator | null | undefined;
function engine(): Calculator | null {
  if (calculator === undefined) {
    try {
      calculator = new Calculator(readBundle());
    } catch {
      calculator = null; // no compiled rules: previews stay generic
    }
  }
  return calculator;
}

const money = (n: number, lang: 'en' | 'es') =>
  new Intl.NumberFormat(lang === 'es' ? 'es-MX' : 'en-US', {
    style: 'currency',
    currency: 'USD',
    currencyDisplay: 'narrowSymbol',
    maximumFractionDigits: 0,
  }).format(n);
const percent = (p: number, lang: 'en' | 'es') =>
  new Intl.NumberFormat(lang === 'es' ? 'es-MX' : 'en-US', { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(p / 100);
const countyName = (name: string, lang: 'en' | 'es') => (lang === 'es' ? name.replace(/^(.+) County$/, 'Condado de $1') : name);

export interface ShareMeta {
  title: string;
  description: string;
}

/** The preview text of a share address of an edition, or null when it carries no calculation. */
export function shareMeta(query: string, state: string, lang: 'en' | 'es'): ShareMeta | null {
  if (state === 'HUB' || !query) return null;
  const r = inputsFromQuery(new URLSearchParams(query), state);
  const calc = r && engine();
  if (!r || !calc) return null;
  try {
    const x = calc.calculate({ state, county: r.county, ...r.inputs } as never);
    const annual = money(Number(x.annualTax), lang);
    const county = countyName(String(x.county), lang);
    return lang === 'es'
      ? {
          title: `${county}: ${annual} al año de impuesto a la propiedad (tarifas de ${x.year})`,
          description: `Estimación para una vivienda de ${money(Number(r.inputs.value), lang)}: ${money(Number(x.monthlyTax), lang)} al mes, tasa efectiva ${percent(Number(x.effectiveRate), lang)}. Calcule la suya con ptax.`,
        }
      : {
          title: `${county}: ${annual} a year in property tax (${x.year} rates)`,
          description: `Estimate for a ${money(Number(r.inputs.value), lang)} home: ${money(Number(x.monthlyTax), lang)} a month, ${percent(Number(x.effectiveRate), lang)} effective rate. Work out yours with ptax.`,
        };
  } catch {
    return null;
  }
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const pages = new Map<string, { mtime: number; html: string }>();

/** The pre-rendered page with the preview's title, description and address in its Open Graph tags. */
export function pageWithMeta(file: string, meta: ShareMeta, url: string): string {
  const mtime = statSync(file).mtimeMs;
  let cached = pages.get(file);
  if (!cached || cached.mtime !== mtime) pages.set(file, (cached = { mtime, html: readFileSync(file, 'utf8') }));
  return cached.html
    .replace(/<meta property="og:title" content="[^"]*"/, `<meta property="og:title" content="${escape(meta.title)}"`)
    .replace(/<meta property="og:description" content="[^"]*"/, `<meta property="og:description" content="${escape(meta.description)}"`)
    .replace(
      /<meta property="og:url" content="([^"]*)"/,
      (_m, base: string) => `<meta property="og:url" content="${escape(base.replace(/\?.*$/, '') + url.slice(url.indexOf('?')))}"`,
    );
}
