// @vitest-environment happy-dom
/** The banner, popup, notify and contact forms post the seeds' payloads and show the server's message or the translated default. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { ReactNode } from 'react';
import { createI18n } from '../i18n/index.js';
import es from '../i18n/es.js';
import { ContactForm, NewsletterBanner, NotifyForm } from './Forms.js';
import { NewsletterPopup } from './NewsletterPopup.js';

const wrap = (ui: ReactNode, lang: 'en' | 'es' = 'en') => render(<I18nextProvider i18n={createI18n(lang, { es })}>{ui}</I18nextProvider>);
let fetchMock: ReturnType<typeof vi.fn>;
const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const sent = () => JSON.parse(fetchMock.mock.calls[0]![1].body as string);

beforeEach(() => {
  localStorage.clear();
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('newsletter banner', () => {
  it('posts email, state, language and the two tags, then shows the server message in place of the form', async () => {
    fetchMock.mockResolvedValue(
      answer(200, { error: null, message: 'Thanks for subscribing! Please check your email to confirm your subscription.', status: 200 }),
    );
    wrap(<NewsletterBanner stateCode="NY" stateName="New York" lang="en" />);
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: ' a@example.com ' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/newsletter/subscribe');
    expect(sent()).toEqual({ email: 'a@example.com', state: 'NY', language: 'en', tags: ['ny-newsletter', 'property-tax-updates'] });
    expect(screen.getByTestId('banner-status').textContent).toBe('Thanks for subscribing! Please check your email to confirm your subscription.');
    expect(screen.queryByLabelText('Email address')).toBeNull();
    // The popup will not ask someone who just subscribed here.
    expect(localStorage.getItem('ptax.newsletterPopupShown')).toBe('1');
  });

  it('shows the server error text, or the translated default on a network failure', async () => {
    fetchMock.mockResolvedValueOnce(answer(400, { error: 'invalid_email', message: 'Please enter a valid email address.', status: 400 }));
    wrap(<NewsletterBanner stateCode="NY" stateName="Nueva York" lang="es" />, 'es');
    fireEvent.change(screen.getByLabelText('Correo electrónico'), { target: { value: 'x@y.co' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Suscribirse' }));
    });
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid email address.');
    expect(localStorage.getItem('ptax.newsletterPopupShown')).toBeNull();
    fetchMock.mockRejectedValueOnce(new TypeError('offline'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Suscribirse' }));
    });
    expect(screen.getByRole('alert').textContent).toBe('Algo salió mal. Por favor, inténtelo de nuevo.');
  });
});

describe('newsletter popup', () => {
  it('posts the popup payload with the county tag and closes 3 s after success', async () => {
    vi.useFakeTimers();
    fetchMock.mockResolvedValue(answer(200, { error: null, message: 'Thanks!', status: 200 }));
    const onClose = vi.fn();
    wrap(
      <NewsletterPopup
        onClose={onClose}
        ctx={{ stateCode: 'NY', stateName: 'New York', lang: 'en', county: { name: 'Kings County', slug: 'kings' }, calculatedTax: 9231.64 }}
      />,
    );
    expect(document.activeElement?.tagName).toBe('BUTTON');
    fireEvent.change(screen.getByLabelText('First name'), { target: { value: 'Ana' } });
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'ana@example.com' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    });
    expect(sent()).toEqual({
      email: 'ana@example.com',
      firstName: 'Ana',
      state: 'NY',
      language: 'en',
      county: 'Kings County',
      calculatedTax: 9231.64,
      tags: ['ny-calculator', 'county-kings'],
    });
    expect(screen.getByTestId('popup-status').textContent).toBe('Thanks!');
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3000);
    });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes with Escape and with the close button', () => {
    const onClose = vi.fn();
    wrap(<NewsletterPopup onClose={onClose} ctx={{ stateCode: 'NY', stateName: 'New York', lang: 'en' }} />);
    fireEvent.keyDown(document, { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});

describe('notify and contact', () => {
  it('notify posts email, state and language to /api/notify', async () => {
    fetchMock.mockResolvedValue(answer(200, { error: null, message: 'We will let you know.', status: 200 }));
    wrap(<NotifyForm stateCode="NY" lang="en" />);
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'n@example.com' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/notify');
    expect(sent()).toEqual({ email: 'n@example.com', state: 'NY', language: 'en' });
    expect(screen.getByTestId('notify-status').textContent).toBe('We will let you know.');
  });

  it('contact posts name, email, subject, message to /api/contact', async () => {
    fetchMock.mockResolvedValue(answer(200, { error: null, message: 'Message sent.', status: 200 }));
    wrap(<ContactForm stateCode="NY" lang="en" />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ana' } });
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'ana@example.com' } });
    fireEvent.change(screen.getByLabelText('Subject'), { target: { value: 'Rates' } });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Hello' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/contact');
    expect(sent()).toEqual({ name: 'Ana', email: 'ana@example.com', subject: 'Rates', message: 'Hello', state: 'NY', language: 'en' });
    expect(screen.getByTestId('contact-status').textContent).toBe('Message sent.');
  });
});
