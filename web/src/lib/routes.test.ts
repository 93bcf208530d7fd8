/** Language routing (seed 001 §2): the whole path table walked both ways. */
import { describe, expect, it } from 'vitest';
import { allRoutes, counterpartPath, hasPage, langOf, PAGE_PATHS, resolveRoute, type Site } from './routes.js';

const site: Site = {
  counties: ['los-angeles', 'miami-dade', 'st-lucie', 'fort-bend'],
  guides: [
    {
      id: 'tx-explained',
      paths: { en: '/guides/texas-property-taxes-explained', es: '/es/guias-impuestos/impuestos-propiedad-texas' },
      aliases: ['/guides/understanding-property-taxes'],
    },
    { id: 'mello-roos-finder', paths: { en: '/guides/mello-roos-finder', es: '/es/guias/buscador-mello-roos' } },
  ],
};

describe('language routing', () => {
  it('the table of seed 001 §2, both ways', () => {
    const table: Array<[string, string]> = [
      ['/', '/es'],
      ['/about', '/es/acerca-de'],
      ['/privacy-policy', '/es/politica-privacidad'],
      ['/terms-of-service', '/es/terminos-servicio'],
      ['/contact', '/es/contacto'],
      ['/faq', '/es/preguntas-frecuentes'],
      ['/tax-guides', '/es/guias-impuestos'],
      ['/how-it-works', '/es/como-funciona'],
      ['/disclaimer', '/es/aviso-legal'],
      ['/affiliate-disclosure', '/es/divulgacion-afiliados'],
    ];
    for (const [en, es] of table) {
      expect(
        PAGE_PATHS.some(([, e, s]) => e === en && s === es),
        en,
      ).toBe(true);
      expect(counterpartPath(en, 'es', site)).toBe(es);
      expect(counterpartPath(es, 'en', site)).toBe(en);
      expect(resolveRoute(en, site).lang).toBe('en');
      expect(resolveRoute(es, site).lang).toBe('es');
      expect(resolveRoute(es, site).page).toBe(resolveRoute(en, site).page);
    }
  });

  it('every page of a site maps to its counterpart and back, and no path is used twice', () => {
    const routes = allRoutes(site);
    const paths = routes.flatMap((r) => [r.en, r.es]);
    expect(new Set(paths).size).toBe(paths.length);
    for (const r of routes) {
      expect(counterpartPath(r.en, 'es', site)).toBe(r.es);
      expect(counterpartPath(r.es, 'en', site)).toBe(r.en);
      expect(counterpartPath(r.en, 'en', site)).toBe(r.en);
    }
  });

  it('county pages under /county and /es/condado with the seed slugs', () => {
    expect(resolveRoute('/county/los-angeles', site)).toEqual({ page: 'county', lang: 'en', param: 'los-angeles' });
    expect(resolveRoute('/es/condado/st-lucie/', site)).toEqual({ page: 'county', lang: 'es', param: 'st-lucie' });
    expect(counterpartPath('/county/fort-bend', 'es', site)).toBe('/es/condado/fort-bend');
    expect(resolveRoute('/county/atlantis', site).page).toBe('not-found');
  });

  it('generic guide aliases show the state guide and switch to its Spanish page', () => {
    expect(resolveRoute('/guides/understanding-property-taxes', site)).toEqual({ page: 'guide', lang: 'en', param: 'tx-explained' });
    expect(counterpartPath('/guides/understanding-property-taxes', 'es', site)).toBe('/es/guias-impuestos/impuestos-propiedad-texas');
  });

  it('unknown paths: add or strip /es, and keep the query string', () => {
    expect(counterpartPath('/no-such-page', 'es', site)).toBe('/es/no-such-page');
    expect(counterpartPath('/es/no-such-page', 'en', site)).toBe('/no-such-page');
    expect(counterpartPath('/es', 'es', site)).toBe('/es');
    expect(counterpartPath('/?county=kings&value=800000', 'es', site)).toBe('/es?county=kings&value=800000');
    expect(resolveRoute('/no-such-page', site)).toEqual({ page: 'not-found', lang: 'en' });
    expect(langOf('/espana')).toBe('en');
    expect(langOf('/es/x')).toBe('es');
  });
});

describe("pages of one edition (California's timeline, seed 001 §2)", () => {
  it('the timeline resolves and is listed on the California site only, both languages', () => {
    const ca: Site = { ...site, edition: 'CA' };
    const tx: Site = { ...site, edition: 'TX' };
    expect(resolveRoute('/guides/california-property-tax-timeline', ca)).toEqual({ page: 'timeline', lang: 'en' });
    expect(resolveRoute('/es/guias/calendario-impuestos-california', ca)).toEqual({ page: 'timeline', lang: 'es' });
    expect(counterpartPath('/guides/california-property-tax-timeline', 'es', ca)).toBe('/es/guias/calendario-impuestos-california');
    expect(resolveRoute('/guides/california-property-tax-timeline', tx).page).toBe('not-found');
    expect(allRoutes(ca).some((r) => r.route.page === 'timeline')).toBe(true);
    expect(allRoutes(tx).some((r) => r.route.page === 'timeline')).toBe(false);
    expect([hasPage('timeline', ca), hasPage('timeline', tx), hasPage('about', tx)]).toEqual([true, false, true]);
  });
});

describe('the hub: a page per county-tier state and per county (issue 26)', () => {
  const hub: Site = {
    counties: [],
    guides: [],
    edition: 'HUB',
    states: [
      { slug: 'ohio', counties: ['franklin', 'cuyahoga'] },
      { slug: 'new-jersey', counties: ['bergen'] },
    ],
  };
  it('/ohio and /es/ohio are the state page; /ohio/<county> and /es/ohio/<county> its county page', () => {
    expect(resolveRoute('/ohio', hub)).toEqual({ page: 'state', lang: 'en', param: 'ohio' });
    expect(resolveRoute('/es/ohio/', hub)).toEqual({ page: 'state', lang: 'es', param: 'ohio' });
    expect(resolveRoute('/ohio/franklin', hub)).toEqual({ page: 'state-county', lang: 'en', param: 'ohio/franklin' });
    expect(resolveRoute('/es/new-jersey/bergen', hub)).toEqual({ page: 'state-county', lang: 'es', param: 'new-jersey/bergen' });
  });
  it('switches language both ways, keeping the slugs', () => {
    expect(counterpartPath('/ohio', 'es', hub)).toBe('/es/ohio');
    expect(counterpartPath('/es/ohio/cuyahoga', 'en', hub)).toBe('/ohio/cuyahoga');
    expect(counterpartPath('/new-jersey/bergen?value=1', 'es', hub)).toBe('/es/new-jersey/bergen?value=1');
  });
  it('an unknown state or county, or a deeper path, is not found; the fixed pages win over state slugs', () => {
    expect(resolveRoute('/atlantis', hub).page).toBe('not-found');
    expect(resolveRoute('/ohio/atlantis', hub).page).toBe('not-found');
    expect(resolveRoute('/ohio/franklin/x', hub).page).toBe('not-found');
    expect(resolveRoute('/es/ohio/Franklin', hub).page).toBe('not-found');
    expect(resolveRoute('/about', { ...hub, states: [{ slug: 'about', counties: [] }] }).page).toBe('about');
    // Without the hub's states (an edition), /ohio is nobody's page.
    expect(resolveRoute('/ohio', site).page).toBe('not-found');
  });
  it('lists the state pages and county pages once each, both languages (2 states + 3 counties = 5 pairs)', () => {
    const routes = allRoutes(hub).filter((r) => r.route.page === 'state' || r.route.page === 'state-county');
    expect(routes.map((r) => [r.en, r.es])).toEqual([
      ['/ohio', '/es/ohio'],
      ['/ohio/franklin', '/es/ohio/franklin'],
      ['/ohio/cuyahoga', '/es/ohio/cuyahoga'],
      ['/new-jersey', '/es/new-jersey'],
      ['/new-jersey/bergen', '/es/new-jersey/bergen'],
    ]);
    const paths = allRoutes(hub).flatMap((r) => [r.en, r.es]);
    expect(new Set(paths).size).toBe(paths.length);
    for (const r of routes) expect(counterpartPath(r.es, 'en', hub)).toBe(r.en);
  });
});
