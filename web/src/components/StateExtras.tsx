/**
 * The edition's own tools below the calculator (seed 001 §2–§4): its specialised
 * calculators (state.calculators in the rule files) and, where the state has them, the
 * county directory; then the 2026 rates timeline. Each panel's code loads only when the
 * visitor opens it.
 */
import { lazy, Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Edition } from '../lib/model.js';
import type { Lang } from '../lib/format.js';
import { RatesTimeline } from './RatesTimeline.js';
import { ErrorBoundary, ThrowProbe } from './ErrorBoundary.js';
import { SectionError } from './ErrorScreens.js';

const ToolPanel = lazy(() => import('./tools/ToolPanel.js'));
const CountyDirectory = lazy(() => import('./tools/CountyDirectory.js'));
const HomeFaq = lazy(() => import('./site/HomeFaq.js'));

/** A <details> panel whose content is rendered (and its code fetched) on first opening. */
export function LazyPanel({ title, testId, children }: { title: string; testId: string; children: () => ReactNode }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  // Opened before its island was hydrated (issue 28: the tools hydrate after the calculator): show it now.
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (ref.current?.open) setOpened(true);
  }, []);
  return (
    <details
      ref={ref}
      className="card panel"
      data-testid={testId}
      onToggle={(e) => {
        if ((e.currentTarget as HTMLDetailsElement).open) setOpened(true);
      }}
    >
      <summary>
        <h3 className="panel-title">{title}</h3>
      </summary>
      {opened && (
        <ErrorBoundary component={`section:${testId}`} fallback={(_e, reset) => <SectionError reset={reset} />}>
          <ThrowProbe level="section" />
          <Suspense
            fallback={
              <p className="help" role="status">
                {t('tools.loading')}
              </p>
            }
          >
            {children()}
          </Suspense>
        </ErrorBoundary>
      )}
    </details>
  );
}

/**
 * One of the state's calculators on its own, in a guide (issue 24: the Texas payment guide has
 * the quick payment calculator, seed 001 §2): the same panel and engine as below the calculator.
 */
export function GuideTool({ edition, lang, name }: { edition: Edition; lang: Lang; name: string }) {
  const { t } = useTranslation();
  const id = useId();
  const k = edition.state.calculators.find((c) => c.name === name);
  if (!k) return null;
  return (
    <section className="tools" aria-labelledby={`${id}-tool`} data-testid="guide-tool">
      <h2 id={`${id}-tool`}>{t('tools.title', { state: edition.stateName[lang] })}</h2>
      <LazyPanel title={k.label[lang] ?? k.label.en} testId={`tool-${k.name}`}>
        {() => <ToolPanel edition={edition} calculatorName={k.name} lang={lang} />}
      </LazyPanel>
    </section>
  );
}

/** The tools, the county directory and the FAQ block, then (unless `timeline` is false: the islands page renders it as static HTML) the rates timeline. */
export function StateExtras({ edition, lang, timeline = true }: { edition: Edition; lang: Lang; timeline?: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const calculators = edition.state.calculators;
  return (
    <>
      {calculators.length > 0 && (
        <section className="tools" aria-labelledby={`${id}-tools`} id="tools">
          <h2 id={`${id}-tools`}>{t('tools.title', { state: edition.stateName[lang] })}</h2>
          {calculators.map((k) => (
            <LazyPanel key={k.name} title={k.label[lang] ?? k.label.en} testId={`tool-${k.name}`}>
              {() => <ToolPanel edition={edition} calculatorName={k.name} lang={lang} />}
            </LazyPanel>
          ))}
        </section>
      )}
      {edition.counties.length > 0 && (
        <section className="tools" aria-labelledby={`${id}-counties`} id="counties">
          <h2 id={`${id}-counties`}>{t('directory.title', { state: edition.stateName[lang], count: edition.counties.length })}</h2>
          <LazyPanel title={t('directory.open', { count: edition.counties.length })} testId="county-directory">
            {() => <CountyDirectory edition={edition} lang={lang} />}
          </LazyPanel>
        </section>
      )}
      <section className="tools" aria-labelledby={`${id}-faq`}>
        <h2 id={`${id}-faq`}>{t('nav.faq')}</h2>
        <LazyPanel title={t('faqBlock.open')} testId="faq-block">
          {() => <HomeFaq edition={edition.code} lang={lang} />}
        </LazyPanel>
      </section>
      {timeline && <RatesTimeline lang={lang} />}
    </>
  );
}
