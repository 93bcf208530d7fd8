/**
 * The calculator: form, mobile wizard, results and popup over one form state, with the
 * behaviour of seed 000 §4–§5 (500 ms delay, value warnings, NYC type warning, failure
 * toast with Retry, the tax-calculation log, popup once per browser).
 */
import { useCallback, useEffect, useId, useRef, useState, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { PropertyForm } from './PropertyForm.js';
import { ResultsCard } from './ResultsCard.js';
import { ResultsSkeleton } from './Skeletons.js';
// The wizard (opened on phones) and the newsletter popup (after a first result) load when shown.
const Wizard = lazy(() => import('./Wizard.js').then((m) => ({ default: m.Wizard })));
const NewsletterPopup = lazy(() => import('./NewsletterPopup.js').then((m) => ({ default: m.NewsletterPopup })));
import { useToast } from './Toaster.js';
import { ThrowProbe } from './ErrorBoundary.js';
import { useCalculatorForm, useFormValues } from './calculatorForm.js';
import { calculate, canCalculate, defaultForm, whenIdle, type Edition, type FormValues, type ResultView } from '../lib/model.js';
import { formatUsd } from '../lib/format.js';
import { readShare } from '../lib/shareLink.js';
import { clampValue } from '../lib/parseValue.js';
import { UI } from '../lib/config.js';
import { DEFAULT_VALUE } from '../../../engine/index.js';
import { getItem, KEYS, setItem } from '../lib/storage.js';
import { logTaxCalculation, reportError, track, events } from '../lib/monitoring.js';
import type { Lang } from '../lib/format.js';

/** The inputs of two forms are the same (the school-tax display switch is not an input). */
function sameInputs(a: FormValues, b: FormValues): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  keys.delete('showSchoolTaxBreakdown');
  for (const k of keys) if ((a as Record<string, unknown>)[k] !== (b as Record<string, unknown>)[k]) return false;
  return true;
}

export function initialValues(edition: Edition): FormValues {
  // A shared address carries its inputs (lib/shareLink.ts): the page opens on that result.
  const shared = typeof location !== 'undefined' ? readShare(location.search, edition) : null;
  if (shared) return shared;
  const saved = getItem(KEYS.county);
  const county = saved ? edition.county(saved) : undefined;
  return { ...defaultForm(edition), county: county ? county.name : '' };
}

export function Calculator({ edition, lang, delayMs = UI.calculationDelayMs }: { edition: Edition; lang: Lang; delayMs?: number }) {
  const { t } = useTranslation();
  const toast = useToast();
  const id = useId();
  const form = useCalculatorForm(initialValues(edition));
  const values = useFormValues(form);
  const [calculating, setCalculating] = useState(false);
  const [result, setResult] = useState<{ view: ResultView; values: FormValues } | null>(null);
  const [wizardStep, setWizardStep] = useState<number | null>(null);
  const [popup, setPopup] = useState(false);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const wizardOpener = useRef<HTMLButtonElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const focusResults = useRef(false);
  const stateName = edition.stateName[lang];

  useEffect(() => () => clearTimeout(timer.current), []);

  // The newsletter popup (seed 000 §2: once per browser, after a first successful calculation),
  // offered only when it cannot cover the result being read (issue 24): after a second
  // calculation, or once the visitor has scrolled past the results.
  const successes = useRef(0);
  const resultsBox = useRef<HTMLElement>(null);
  const offerPopup = useCallback((delay: number) => {
    if (getItem(KEYS.popupShown)) return;
    setItem(KEYS.popupShown, '1');
    setTimeout(() => setPopup(true), delay);
  }, []);
  const hasResult = result !== null;
  useEffect(() => {
    if (!hasResult || typeof window === 'undefined' || getItem(KEYS.popupShown)) return;
    const onScroll = () => {
      const box = resultsBox.current?.getBoundingClientRect();
      if (box && box.height > 0 && box.bottom < 0) {
        window.removeEventListener('scroll', onScroll);
        offerPopup(0);
      }
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [hasResult, offerPopup]);

  const run = useCallback(() => {
    const v = form.state.values;
    const county = edition.county(v.county);
    const value = clampValue(v.homeValue);
    if (!county) return void toast({ type: 'warning', title: t('toast.needCounty') });
    if (value <= 0) return void toast({ type: 'warning', title: t('toast.needValue') });
    if (county.needsPropertyType && !v.propertyType) return void toast({ type: 'warning', title: t('toast.nycType') });
    setCalculating(true);
    logTaxCalculation('started', { county: county.name, propertyType: v.propertyType || undefined });
    events.calculationStarted(county.slug);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      try {
        // A User Timing measure (Lighthouse lists them; web/scripts/measure-first-calc.mjs
        // reads it): the engine's run and the view made from it, the budget of issue 27.
        const started = performance.now();
        const view = calculate(edition, { ...v, homeValue: value }, lang);
        performance.measure('ptax:calculate', { start: started, end: performance.now() });
        setResult({ view, values: { ...v, homeValue: value } });
        focusResults.current = true;
        logTaxCalculation('completed', { county: view.county, annualTax: view.annualTax, effectiveRate: view.effectiveRate });
        events.calculationComplete({
          county: county.slug,
          propertyValue: value,
          annualTax: view.annualTax,
          monthlyTax: view.monthlyTax,
          effectiveRate: view.effectiveRate,
          totalSavings: view.exemptionSavings,
          exemptionsApplied: view.exemptions.map((e) => e.key),
        });
        // Issue 24: never over the result being read: a second calculation, or scrolling past the results (below).
        successes.current += 1;
        if (successes.current >= 2) offerPopup(UI.popupDelayMs);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        logTaxCalculation('failed', { county: county.name, error: message });
        reportError(e, { component: 'property-tax-calculator' });
        events.calculationFailed(county.slug);
        // The previous result must not stay on screen under the new inputs (issue 15).
        setResult(null);
        toast({
          type: 'error',
          title: t('toast.calcFailed'),
          description: `${t('toast.calcFailedText')} (${message})`,
          duration: UI.toastFailureMs,
          action: { label: t('toast.retry'), onClick: () => runRef.current() },
        });
      } finally {
        setCalculating(false);
      }
    }, delayMs);
  }, [form, edition, lang, toast, t, delayMs, offerPopup]);
  const runRef = useRef(run);
  runRef.current = run;

  // Opened from a share link: show its result at once.
  useEffect(() => {
    if (typeof location !== 'undefined' && readShare(location.search, edition)) runRef.current();
  }, [edition]);

  // Move focus to the new figures once they are on screen.
  useEffect(() => {
    if (result && focusResults.current) {
      focusResults.current = false;
      resultsHeading.current?.focus();
    }
  }, [result]);

  // The result follows the page language: recompute when the language changes.
  const lastLang = useRef(lang);
  useEffect(() => {
    if (lastLang.current === lang) return;
    lastLang.current = lang;
    if (result) {
      try {
        setResult({ view: calculate(edition, result.values, lang), values: result.values });
      } catch {
        /* keep the old figures */
      }
    }
  }, [lang, edition, result]);

  // Issue 27, the first calculation: the engine's first run pays for code running for the
  // first time (several times its later runs, even with the program's lowered form read from
  // the data package and the sentences written when the explanation is opened). Once the
  // visitor has chosen a county, that first run is made in idle time with the form's values
  // (its result is not shown, no event is sent; User Timing ptax:warm-up), so the click's
  // calculation is a warm one. Once per page.
  const warmed = useRef(false);
  const chosen = edition.county(values.county);
  useEffect(() => {
    if (warmed.current || result !== null || !chosen) return;
    warmed.current = true;
    const v = form.state.values;
    whenIdle(() => {
      try {
        // The engine's cold run, timed as the click's is (web/scripts/measure-first-calc.mjs reads both).
        const started = performance.now();
        calculate(edition, { ...v, homeValue: clampValue(v.homeValue) || DEFAULT_VALUE }, lang);
        performance.measure('ptax:warm-up', { start: started, end: performance.now() });
      } catch {
        /* a missing value or type: the click says so */
      }
    });
  }, [chosen, result, form, edition, lang]);

  // Once there is a result it follows the inputs (as visitors of other calculators expect):
  // complete inputs recompute quietly; incomplete or impossible ones mark the figures stale.
  const changed = result !== null && !sameInputs(result.values, values);
  const complete = canCalculate(values, edition.county(values.county));
  useEffect(() => {
    if (!changed || !complete || calculating) return;
    const live = setTimeout(() => {
      const v = form.state.values;
      try {
        setResult({ view: calculate(edition, { ...v, homeValue: clampValue(v.homeValue) }, lang), values: { ...v, homeValue: clampValue(v.homeValue) } });
      } catch {
        setResult(null);
      }
    }, UI.liveUpdateMs);
    return () => clearTimeout(live);
  }, [changed, complete, calculating, values, form, edition, lang]);

  const closeWizard = useCallback(() => {
    setWizardStep(null);
    setTimeout(() => wizardOpener.current?.focus(), 0);
  }, []);
  const closePopup = useCallback(() => {
    setPopup(false);
    setItem(KEYS.popupDismissed, '1');
    track('newsletter_popup_dismissed');
  }, []);
  const county = result ? edition.county(result.values.county) : undefined;

  return (
    <>
      <ThrowProbe />
      <section className="mobile-panel card" aria-labelledby={`${id}-mobile`} data-testid="mobile-panel">
        <h2 id={`${id}-mobile`}>{t('mobile.title')}</h2>
        <p>{t('mobile.text')}</p>
        <button
          type="button"
          className="btn btn-primary btn-block"
          ref={wizardOpener}
          onClick={() => {
            setWizardStep(0);
            events.wizardStarted();
          }}
          data-testid="start-wizard"
        >
          {t('mobile.start')}
        </button>
      </section>
      <div className="calc-grid">
        <PropertyForm form={form} edition={edition} lang={lang} calculating={calculating} onCalculate={run} />
        <section className="card results" aria-labelledby={`${id}-results`} aria-busy={calculating} id="results" ref={resultsBox}>
          <h2 id={`${id}-results`}>{t('results.title')}</h2>
          {calculating ? (
            <ResultsSkeleton />
          ) : result ? (
            <>
              {changed && !complete && (
                <p className="stale-note" role="status" data-testid="result-stale">
                  {t('results.stale', { county: result.view.county, value: formatUsd(result.values.homeValue, lang) })}
                </p>
              )}
              {(result.values.homeValue > UI.veryHighValue || result.values.homeValue < UI.veryLowValue) && (
                <p className="value-check" role="note" data-testid="value-check">
                  {t(result.values.homeValue > UI.veryHighValue ? 'toast.veryHigh' : 'toast.veryLow')}. {t('toast.verify')}
                </p>
              )}
              <div className={changed && !complete ? 'stale' : undefined}>
                <ResultsCard
                  result={result.view}
                  values={{ ...result.values, showSchoolTaxBreakdown: values.showSchoolTaxBreakdown }}
                  lang={lang}
                  heading={resultsHeading}
                  rates={county?.needsPropertyType ? edition.classRates(county) : {}}
                  edition={edition}
                />
              </div>
            </>
          ) : (
            <p className="empty" data-testid="results-empty">
              {t('results.empty')}
            </p>
          )}
        </section>
      </div>
      {wizardStep !== null && (
        <Suspense fallback={null}>
          <Wizard
            form={form}
            edition={edition}
            lang={lang}
            step={wizardStep}
            setStep={setWizardStep}
            onClose={closeWizard}
            onCalculate={() => {
              setWizardStep(null);
              run();
            }}
          />
        </Suspense>
      )}
      {popup && (
        <Suspense fallback={null}>
          <NewsletterPopup
            onClose={closePopup}
            ctx={{
              stateCode: edition.code,
              stateName,
              lang,
              county: result ? { name: result.view.county, slug: result.view.countySlug } : undefined,
              calculatedTax: result?.view.annualTax,
            }}
          />
        </Suspense>
      )}
    </>
  );
}
