// @vitest-environment happy-dom
/** The consent banner: asks when undecided, stores analytics_consent, can be changed later, keyboard and screen-reader friendly, English and Spanish. */
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import type { ReactNode } from 'react';
import { ConsentBanner, ConsentSettingsButton } from './ConsentBanner.js';
import { consentText } from '../lib/telemetry/i18n.js';
import { memoryStore } from '../lib/telemetry/store.js';
import { initTelemetry, type Telemetry } from '../lib/telemetry/index.js';

function i18n(lang: 'en' | 'es') {
  const inst = i18next.createInstance();
  void inst.use(initReactI18next).init({
    lng: lang,
    fallbackLng: 'en',
    initAsync: false,
    interpolation: { escapeValue: false },
    resources: { en: { translation: consentText.en }, es: { translation: consentText.es } },
  });
  return inst;
}
const wrap = (ui: ReactNode, lang: 'en' | 'es' = 'en') => render(<I18nextProvider i18n={i18n(lang)}>{ui}</I18nextProvider>);
let telemetry: Telemetry | null = null;

afterEach(() => {
  cleanup();
  telemetry?.dispose();
  telemetry = null;
  delete (window as { dataLayer?: unknown }).dataLayer;
});

describe('consent banner', () => {
  it('asks when no choice is stored; Accept stores {analytics: true, marketing: false}, closes and announces it', () => {
    const store = memoryStore();
    wrap(<ConsentBanner store={store} privacyHref="/privacy-policy" />);
    const region = screen.getByRole('region', { name: 'Usage statistics' });
    expect(region.textContent).toContain('Nothing is recorded if you decline');
    expect(screen.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe('/privacy-policy');
    fireEvent.click(screen.getByRole('button', { name: 'Accept statistics' }));
    expect(store.data.get('analytics_consent')).toBe('{"analytics":true,"marketing":false}');
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Saved: usage statistics are on.');
  });

  it('Decline stores analytics false', () => {
    const store = memoryStore();
    wrap(<ConsentBanner store={store} />);
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    expect(store.data.get('analytics_consent')).toBe('{"analytics":false,"marketing":false}');
    expect(screen.getByRole('status').textContent).toBe('Saved: usage statistics are off.');
  });

  it('does not show when a choice is stored; the settings button reopens it with focus on its heading and the current choice', () => {
    const store = memoryStore({ analytics_consent: '{"analytics":false,"marketing":false}' });
    wrap(
      <>
        <ConsentSettingsButton />
        <ConsentBanner store={store} />
      </>,
    );
    expect(screen.queryByRole('region')).toBeNull();
    const settings = screen.getByRole('button', { name: 'Usage statistics settings' });
    act(() => {
      settings.focus();
      fireEvent.click(settings);
    });
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Usage statistics' }));
    expect(screen.getByTestId('consent-current').textContent).toBe('Usage statistics are off.');
    fireEvent.click(screen.getByRole('button', { name: 'Accept statistics' }));
    expect(store.data.get('analytics_consent')).toBe('{"analytics":true,"marketing":false}');
    expect(document.activeElement).toBe(settings);
  });

  it('Escape (or Close) closes a reopened banner without changing the choice, focus back on the settings button', () => {
    const store = memoryStore({ analytics_consent: '{"analytics":true,"marketing":false}' });
    wrap(
      <>
        <ConsentSettingsButton />
        <ConsentBanner store={store} />
      </>,
    );
    const settings = screen.getByRole('button', { name: 'Usage statistics settings' });
    act(() => {
      fireEvent.click(settings);
    });
    fireEvent.keyDown(screen.getByRole('heading', { name: 'Usage statistics' }), { key: 'Escape' });
    expect(screen.queryByRole('region')).toBeNull();
    expect(document.activeElement).toBe(settings);
    act(() => {
      fireEvent.click(settings);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region')).toBeNull();
    expect(store.data.get('analytics_consent')).toBe('{"analytics":true,"marketing":false}');
  });

  it('speaks Spanish', () => {
    wrap(<ConsentBanner store={memoryStore()} privacyHref="/es/politica-privacidad" />, 'es');
    expect(screen.getByRole('region', { name: 'Estadísticas de uso' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Aceptar estadísticas' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Rechazar' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Política de privacidad' })).toBeTruthy();
  });

  it('English and Spanish have the same keys, none empty', () => {
    const keys = (o: object) =>
      Object.entries(o)
        .map(([k, v]) => {
          expect(String(v).trim()).not.toBe('');
          return k;
        })
        .sort();
    expect(keys(consentText.es.consent)).toEqual(keys(consentText.en.consent));
  });

  it('with telemetry: nothing in window.dataLayer until Accept, then the page_view', () => {
    const store = memoryStore();
    telemetry = initTelemetry({ state: 'NY', host: 'ny.example.com', pathname: '/', win: window, store, importWebVitals: () => new Promise(() => {}) });
    wrap(<ConsentBanner store={store} />);
    telemetry.calculationStarted('Kings');
    expect((window as { dataLayer?: unknown[] }).dataLayer ?? []).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Accept statistics' }));
    expect((window as unknown as { dataLayer: unknown[] }).dataLayer).toEqual([
      { event: 'page_view', state: 'NY', page_type: 'homepage', page_path: '/', user_type: 'new' },
    ]);
  });
});
