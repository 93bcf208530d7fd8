/**
 * The analytics consent banner (issue 13, seed 001 §3/§4: `analytics_consent`): Accept or
 * Decline, kept in localStorage; `ConsentSettingsButton` (for the footer) reopens it so the
 * visitor can change the choice later. Until a choice is made analytics stays off.
 *
 * Accessibility: a labelled region with a heading, native buttons (keyboard by default),
 * Escape closes it, focus moves to its heading when reopened and back to the settings
 * button afterwards, and the saved choice is announced in a polite status region.
 * Pre-rendered open and marked `data-initial`: CSS shows it then only when the page's inline
 * script found no stored choice (html[data-consent='ask']), so a new visitor sees it with the
 * page's first paint and someone who has chosen never does; after mount the stored choice
 * decides, and the mark goes.
 */
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { readConsent, writeConsent } from '../lib/telemetry/consent.js';
import { safeLocalStorage, type KeyValueStore } from '../lib/telemetry/store.js';

type Opener = (returnFocusTo: HTMLElement | null) => void;
const openers = new Set<Opener>();

/** Reopens the banner (from anywhere); focus returns to `returnFocusTo` when it closes. */
export function openConsentSettings(returnFocusTo: HTMLElement | null = null): void {
  for (const o of openers) o(returnFocusTo);
}

export function ConsentSettingsButton({ className = 'consent-settings' }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <button type="button" className={className} data-testid="consent-settings" onClick={(e) => openConsentSettings(e.currentTarget)}>
      {t('consent.settings')}
    </button>
  );
}

export interface ConsentBannerProps {
  /** The privacy page of the current language (e.g. /privacy-policy, /es/politica-privacidad). */
  privacyHref?: string;
  store?: KeyValueStore;
}

export function ConsentBanner({ privacyHref, store = safeLocalStorage }: ConsentBannerProps) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(true);
  const [settled, setSettled] = useState(false);
  const [mode, setMode] = useState<'ask' | 'change'>('ask');
  const [current, setCurrent] = useState<boolean | null>(null);
  const [status, setStatus] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const focusOnOpen = useRef(false);

  // After mount: ask only when no choice is stored (never steal focus on page load).
  useEffect(() => {
    const c = readConsent(store);
    setCurrent(c ? c.analytics : null);
    setMode('ask');
    setOpen(!c);
    setSettled(true);
  }, [store]);

  useEffect(() => {
    const opener: Opener = (el) => {
      const c = readConsent(store);
      setCurrent(c ? c.analytics : null);
      returnTo.current = el;
      focusOnOpen.current = true;
      setMode('change');
      setStatus('');
      setOpen(true);
    };
    openers.add(opener);
    return () => void openers.delete(opener);
  }, [store]);

  useEffect(() => {
    if (open && focusOnOpen.current) {
      focusOnOpen.current = false;
      heading.current?.focus();
    }
  }, [open]);

  const close = useCallback(() => {
    setOpen(false);
    const el = returnTo.current;
    returnTo.current = null;
    if (el?.isConnected) el.focus();
  }, []);

  const choose = (analytics: boolean) => {
    writeConsent({ analytics, marketing: false }, store);
    setCurrent(analytics);
    setStatus(t(analytics ? 'consent.savedOn' : 'consent.savedOff'));
    close();
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close();
    }
  };

  return (
    <>
      <p className="sr-only" role="status" aria-live="polite" data-testid="consent-status">
        {status}
      </p>
      {open && (
        <section
          className="consent-banner"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-text`}
          onKeyDown={onKeyDown}
          data-testid="consent-banner"
          data-initial={settled ? undefined : ''}
        >
          <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
            {t('consent.title')}
          </h2>
          <p id={`${id}-text`}>
            {t('consent.text')}
            {privacyHref && (
              <>
                {' '}
                <a href={privacyHref}>{t('consent.privacy')}</a>
              </>
            )}
          </p>
          {mode === 'change' && current !== null && <p data-testid="consent-current">{t(current ? 'consent.currentOn' : 'consent.currentOff')}</p>}
          <div className="consent-actions">
            <button type="button" className="btn btn-primary" onClick={() => choose(true)} data-testid="consent-accept">
              {t('consent.accept')}
            </button>
            <button type="button" className="btn" onClick={() => choose(false)} data-testid="consent-decline">
              {t('consent.decline')}
            </button>
            {mode === 'change' && (
              <button type="button" className="btn btn-ghost" onClick={close} data-testid="consent-close">
                {t('consent.close')}
              </button>
            )}
          </div>
        </section>
      )}
    </>
  );
}
