/** The newsletter banner, the notify form and the contact form, posting to the site server's API. */
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSubmit, type SubmitState } from './useSubmit.js';
import type { Lang } from '../lib/format.js';
import { phrase } from '../lib/editionText.js';
import { KEYS, setItem } from '../lib/storage.js';

export function FormStatus({ state, testId }: { state: SubmitState; testId: string }) {
  if (state.status !== 'success' && state.status !== 'error') return <p className="sr-only" role="status" aria-live="polite" />;
  return (
    <p className={`form-status form-${state.status}`} role={state.status === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {state.message}
    </p>
  );
}

/**
 * A pre-rendered field keeps what a visitor typed before the script ran (hydration leaves the
 * field's value alone, but the state starts empty and the next render would clear it): the
 * returned ref takes that value into the state once, before the first paint.
 */
function useEarlyValue<E extends HTMLInputElement | HTMLTextAreaElement>(apply: (value: string) => void) {
  const ref = useRef<E>(null);
  const applyOnce = useRef(apply);
  useLayoutEffect(() => {
    const typed = ref.current?.value;
    if (typed) applyOnce.current(typed);
  }, []);
  return ref;
}

/** Banner: email, state, language, tags (state newsletter + property-tax-updates); success replaces the form (seed 000 §4, §7). */
export function NewsletterBanner({ stateCode, stateName, lang }: { stateCode: string; stateName: string; lang: Lang }) {
  const { t } = useTranslation();
  const id = useId();
  const [email, setEmail] = useState('');
  const emailRef = useEarlyValue<HTMLInputElement>(setEmail);
  const { state, submit } = useSubmit('/api/newsletter/subscribe');
  // Someone who subscribed here is not asked again by the popup (issue 15).
  useEffect(() => {
    if (state.status === 'success') setItem(KEYS.popupShown, '1');
  }, [state.status]);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit({ email: email.trim(), state: stateCode, language: lang, tags: [`${stateCode.toLowerCase()}-newsletter`, 'property-tax-updates'] });
  };
  return (
    <section className="banner" aria-labelledby={`${id}-title`} data-testid="newsletter-banner">
      <div>
        <h2 id={`${id}-title`} className="banner-title">
          {phrase(stateCode, 'updatesTitle', lang) ?? t('banner.title', { state: stateName })}
        </h2>
        <p className="banner-text">{t('banner.text')}</p>
      </div>
      {state.status === 'success' ? (
        <FormStatus state={state} testId="banner-status" />
      ) : (
        <form className="banner-form" onSubmit={onSubmit} noValidate={false}>
          <label htmlFor={`${id}-email`} className="sr-only">
            {t('banner.email')}
          </label>
          <input
            ref={emailRef}
            id={`${id}-email`}
            type="email"
            name="email"
            required
            autoComplete="email"
            placeholder={t('banner.placeholder')}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <button type="submit" className="btn btn-accent" disabled={state.status === 'submitting'}>
            {state.status === 'submitting' ? t('banner.submitting') : t('banner.submit')}
          </button>
          <FormStatus state={state} testId="banner-status" />
        </form>
      )}
    </section>
  );
}

/** Rates-coming-soon notify form: email, state, language → POST /api/notify. */
/** `year`: the first tax year the rules do not hold yet (the one whose rates are coming). */
export function NotifyForm({ stateCode, lang, year }: { stateCode: string; lang: Lang; year?: number }) {
  const { t } = useTranslation();
  const id = useId();
  const [email, setEmail] = useState('');
  const emailRef = useEarlyValue<HTMLInputElement>(setEmail);
  const { state, submit } = useSubmit('/api/notify');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit({ email: email.trim(), state: stateCode, language: lang });
  };
  return (
    <section className="card notify" aria-labelledby={`${id}-title`} data-testid="notify-section">
      <h2 id={`${id}-title`}>{year ? t('notify.titleYear', { year }) : t('notify.title')}</h2>
      <p>{t('notify.text')}</p>
      {state.status === 'success' ? (
        <FormStatus state={state} testId="notify-status" />
      ) : (
        <form className="inline-form" onSubmit={onSubmit}>
          <label htmlFor={`${id}-email`}>{t('notify.email')}</label>
          <div className="inline-row">
            <input ref={emailRef} id={`${id}-email`} type="email" required autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            <button type="submit" className="btn" disabled={state.status === 'submitting'}>
              {state.status === 'submitting' ? t('notify.submitting') : t('notify.submit')}
            </button>
          </div>
          <FormStatus state={state} testId="notify-status" />
        </form>
      )}
    </section>
  );
}

/** Contact form: name, email, subject, message (seed 001 §3) → POST /api/contact. */
export function ContactForm({ stateCode, lang }: { stateCode: string; lang: Lang }) {
  const { t } = useTranslation();
  const id = useId();
  const [v, setV] = useState({ name: '', email: '', subject: '', message: '' });
  const { state, submit } = useSubmit('/api/contact');
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV((old) => ({ ...old, [k]: e.target.value }));
  const early = (k: keyof typeof v) => (value: string) => setV((old) => ({ ...old, [k]: value }));
  const refs = {
    name: useEarlyValue<HTMLInputElement>(early('name')),
    email: useEarlyValue<HTMLInputElement>(early('email')),
    subject: useEarlyValue<HTMLInputElement>(early('subject')),
    message: useEarlyValue<HTMLTextAreaElement>(early('message')),
  };
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const ok = await submit({ name: v.name.trim(), email: v.email.trim(), subject: v.subject.trim(), message: v.message, state: stateCode, language: lang });
    if (ok) setV({ name: '', email: '', subject: '', message: '' });
  };
  return (
    <form className="card contact-form" onSubmit={onSubmit} data-testid="contact-form">
      <div className="field">
        <label htmlFor={`${id}-name`}>{t('contact.name')}</label>
        <input ref={refs.name} id={`${id}-name`} type="text" required maxLength={100} autoComplete="name" value={v.name} onChange={set('name')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-email`}>{t('contact.email')}</label>
        <input ref={refs.email} id={`${id}-email`} type="email" required autoComplete="email" value={v.email} onChange={set('email')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-subject`}>{t('contact.subject')}</label>
        <input ref={refs.subject} id={`${id}-subject`} type="text" required maxLength={150} value={v.subject} onChange={set('subject')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-message`}>{t('contact.message')}</label>
        <textarea ref={refs.message} id={`${id}-message`} required maxLength={4000} rows={6} value={v.message} onChange={set('message')} />
      </div>
      <button type="submit" className="btn btn-primary" disabled={state.status === 'submitting'}>
        {state.status === 'submitting' ? t('contact.submitting') : t('contact.submit')}
      </button>
      <FormStatus state={state} testId="contact-status" />
    </form>
  );
}
