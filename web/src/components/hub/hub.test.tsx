// @vitest-environment happy-dom
/** The hub's national pages (issue 26): the state search in both languages and the county table's order. */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n/index.js';
import es from '../../i18n/es.js';
import type { Resources } from '../../i18n/en.js';
import { CountyTable, sortRows } from './CountyTable.js';
import { StateList } from './StateList.js';
import { fold, type CountyRow, type HubState } from './hubTypes.js';

afterEach(cleanup);

const STATES: HubState[] = [
  { code: 'NJ', slug: 'new-jersey', name: { en: 'New Jersey', es: 'Nueva Jersey' }, tier: 'county', counties: 21 },
  { code: 'NY', slug: 'new-york', name: { en: 'New York', es: 'Nueva York' }, tier: 'edition', counties: 62 },
  { code: 'OH', slug: 'ohio', name: { en: 'Ohio', es: 'Ohio' }, tier: 'county', counties: 88 },
];
// Made-up rows (not the data): what is checked is the order, not a figure.
const row = (slug: string, rate: number | null, population: number | null): CountyRow => ({
  slug,
  name: `${slug[0]!.toUpperCase()}${slug.slice(1)} County`,
  rate,
  value: 100000,
  tax: rate === null ? null : rate * 1000,
  population,
  topCoded: false,
});
const ROWS = [row('adams', 1.2, 500), row('brown', null, 900), row('clark', 2.5, 100), row('darke', 0.7, null)];

const withText = (lang: 'en' | 'es', ui: React.ReactElement) =>
  render(<I18nextProvider i18n={createI18n(lang, { es: es as unknown as Resources })}>{ui}</I18nextProvider>);

describe('state search', () => {
  it('folds case and accents', () => {
    expect(fold('  Nueva Jérsey ')).toBe('nueva jersey');
  });
  it('finds a state by its Spanish name on the Spanish page, and by its English one; a full edition links to its site', () => {
    withText('es', <StateList lang="es" states={STATES} editionHref={(c) => `http://${c.toLowerCase()}.example/es`} />);
    expect(screen.getAllByTestId('state-item')).toHaveLength(3);
    fireEvent.change(screen.getByLabelText('Busque su estado'), { target: { value: 'nueva jersey' } });
    expect(screen.getAllByTestId('state-item').map((li) => li.dataset.code)).toEqual(['NJ']);
    expect(screen.getByTestId('state-link-nj').getAttribute('href')).toBe('/es/new-jersey');
    fireEvent.change(screen.getByLabelText('Busque su estado'), { target: { value: 'New York' } });
    expect(screen.getByTestId('state-link-ny').getAttribute('href')).toBe('http://ny.example/es');
    fireEvent.change(screen.getByLabelText('Busque su estado'), { target: { value: 'zz' } });
    expect(screen.queryAllByTestId('state-item')).toHaveLength(0);
    expect(screen.getByTestId('state-count').textContent).toContain('zz');
  });
});

describe('county table', () => {
  it('sorts by a figure either way, counties without it last; ties and names by name', () => {
    expect(sortRows(ROWS, 'rate', 'descending').map((r) => r.slug)).toEqual(['clark', 'adams', 'darke', 'brown']);
    expect(sortRows(ROWS, 'rate', 'ascending').map((r) => r.slug)).toEqual(['darke', 'adams', 'clark', 'brown']);
    expect(sortRows(ROWS, 'population', 'descending').map((r) => r.slug)).toEqual(['brown', 'adams', 'clark', 'darke']);
    expect(sortRows(ROWS, 'name', 'descending').map((r) => r.slug)).toEqual(['darke', 'clark', 'brown', 'adams']);
  });
  it('a column button sorts (descending first, then ascending) and says so with aria-sort; rows link to county pages', () => {
    withText('en', <CountyTable lang="en" stateSlug="ohio" state="Ohio" rows={ROWS} />);
    const order = () => screen.getAllByTestId('county-row').map((r) => r.dataset.slug);
    expect(order()).toEqual(['adams', 'brown', 'clark', 'darke']);
    fireEvent.click(screen.getByRole('button', { name: 'Sort by Median rate' }));
    expect(order()).toEqual(['clark', 'adams', 'darke', 'brown']);
    expect(screen.getByTestId('sort-rate').parentElement!.getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(screen.getByTestId('sort-rate'));
    expect(screen.getByTestId('sort-rate').parentElement!.getAttribute('aria-sort')).toBe('ascending');
    expect(order()).toEqual(['darke', 'adams', 'clark', 'brown']);
    expect(screen.getByRole('link', { name: 'Adams County' }).getAttribute('href')).toBe('/ohio/adams');
  });
});
