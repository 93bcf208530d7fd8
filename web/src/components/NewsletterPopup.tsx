/** Newsletter popup (seed 000 §2, §4, §7): first name and email, closes 3 s after success and resets. */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useDialog } from './useDialog.js';
import { useSubmit } from './useSubmit.js';
import { FormStatus } from './Forms.js';
import { UI } from '../lib/config.js';
import type { Lang } from '../lib/format.js';
import { countyName } from '../lib/places.js';

export interface PopupContext {
  stateCode: string;
  stateName: string;
  lang: Lang;
  county?: { name: string; slug: string };
  calculatedTax?: number;
}

export function NewsletterPopup({ ctx, onClose }: { ctx: PopupContext; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [firstName, setFirstName] = useState('');
  const [email, setEmail] = useState('');
  const { state, submit, reset } = useSubmit('/api/newsletter/subscribe');
  const ref = useDialog<HTMLDivElement>(true, onClose);
  useEffect(() => {
    if (state.status !== 'success') return;
    const timer = setTimeout(() => {
      setFirstName('');
      setEmail('');
      reset();
      onClose();
    }, UI.popupAutoCloseMs);
    return () => clearTimeout(timer);
  }, [state.status, reset, onClose]);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const code = ctx.stateCode.toLowerCase();
    const body: Record<string, unknown> = {
      email: email.trim(),
      firstName: firstName.trim(),
      state: ctx.stateCode,
      language: ctx.lang,
      tags: [`${code}-calculator`, ...(ctx.county ? [`county-${ctx.county.slug}`] : [])],
    };
    if (ctx.county) body.county = ctx.county.name;
    if (typeof ctx.calculatedTax === 'number') body.calculatedTax = ctx.calculatedTax;
    void submit(body);
  };
  return createPortal(
    <div className="overlay overlay-sheet">
      <div
        className="popup card"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        ref={ref}
        data-testid="newsletter-popup"
      >
        <button type="button" className="popup-close" onClick={onClose} aria-label={t('popup.close')} data-testid="popup-close">
          <span aria-hidden="true">×</span>
        </button>
        <h2 id={`${id}-title`}>{t('popup.title', { state: ctx.stateName })}</h2>
        <p id={`${id}-text`}>{ctx.county ? t('popup.text', { county: countyName(ctx.county.name, t) }) : t('popup.textNoCounty')}</p>
        {state.status === 'success' ? (
          <FormStatus state={state} testId="popup-status" />
        ) : (
          <form onSubmit={onSubmit}>
            <div className="field">
              <label htmlFor={`${id}-name`}>{t('popup.firstName')}</label>
              <input
                id={`${id}-name`}
                type="text"
                required
                maxLength={100}
                autoComplete="given-name"
                value={firstName}
                onChange={(e) => setFirstName(e.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-email`}>{t('popup.email')}</label>
              <input id={`${id}-email`} type="email" required autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            </div>
            <button type="submit" className="btn btn-primary btn-block" disabled={state.status === 'submitting'}>
              {state.status === 'submitting' ? t('popup.submitting') : t('popup.submit')}
            </button>
            <FormStatus state={state} testId="popup-status" />
          </form>
        )}
      </div>
    </div>,
    document.body,
  );
}
