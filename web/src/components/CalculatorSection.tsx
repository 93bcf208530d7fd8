/**
 * The calculator's part of the page and what it needs (issue 28: its own island, so the
 * browser hydrates it without the rest of the site's code): the state data hook, the loader
 * of the calculator's code (HomeParts, its own chunk), the section with its skeleton, load
 * error and error boundary, and the island's root component.
 */
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type * as HomeParts from './HomeParts.js';
import { ErrorBoundary } from './ErrorBoundary.js';
import { ErrorPanel } from './ErrorScreens.js';
import { FormSkeleton, ResultsSkeleton } from './Skeletons.js';
import { useToast } from './Toaster.js';
import { loadStateData, EDITION, type LoadedState, type PackageLoaders } from '../lib/stateData.js';
import { makeEdition, type Edition } from '../lib/model.js';
import { reportError } from '../lib/monitoring.js';
import type { Lang } from '../lib/format.js';

export type HomePartsModule = typeof HomeParts;

/** One Edition per loaded bundle (it compiles the programs): the calculator and tools islands share it. */
const editions = new WeakMap<LoadedState['bundle'], Edition>();
export function editionOf(loaded: LoadedState): Edition {
  let e = editions.get(loaded.bundle);
  if (!e) editions.set(loaded.bundle, (e = makeEdition(loaded.bundle)));
  return e;
}
export const loadHomeParts = (): Promise<HomePartsModule> => import('./HomeParts.js');

export type Data = { status: 'loading' } | { status: 'ready'; loaded: LoadedState; edition: Edition } | { status: 'error' };

/**
 * The state data: given at once when pre-rendering (`initial`), else loaded (by `preload` the
 * first time when given: the islands start loading it before the calculator's code has run).
 * The page that arrives with it renders in a transition (issue 28): React renders the form in
 * slices and lets the browser handle input between them, instead of one long task.
 */
export function useStateData(loaders?: PackageLoaders, initial?: LoadedState, preload?: () => Promise<LoadedState>) {
  const { t } = useTranslation();
  const toast = useToast();
  const [data, setData] = useState<Data>(() => (initial ? { status: 'ready', loaded: initial, edition: editionOf(initial) } : { status: 'loading' }));
  const [attempt, setAttempt] = useState(0);
  const toastRef = useRef({ toast, t });
  toastRef.current = { toast, t };
  useEffect(() => {
    if (initial && attempt === 0) return;
    let live = true;
    setData({ status: 'loading' });
    (preload && attempt === 0 ? preload() : loadStateData(EDITION, loaders))
      .then((loaded) => {
        if (!live) return;
        const edition = editionOf(loaded);
        startTransition(() => setData({ status: 'ready', loaded, edition }));
        const { toast: push, t: tr } = toastRef.current;
        if (loaded.fellBack) push({ type: 'warning', title: tr('toast.fallback', { state: loaded.requested, fallback: loaded.pkg.state.code }) });
      })
      .catch((e) => {
        if (!live) return;
        reportError(e, { where: 'state data' });
        setData({ status: 'error' });
        toastRef.current.toast({ type: 'error', title: toastRef.current.t('toast.loadFailed') });
      });
    return () => {
      live = false;
    };
  }, [attempt, loaders, initial, preload]);
  // With the build's own loaders the package is a dynamic import, and a failed one stays failed
  // in the page's module map (Chromium keeps the error for that address): loading it again in
  // the same page cannot succeed, so "Try Again" loads the page again. Given loaders (tests,
  // pre-rendering) are simply called again.
  const retry = useCallback(() => (loaders ? setAttempt((n) => n + 1) : window.location.reload()), [loaders]);
  return { data, retry };
}

/** Data or code a page needs: given when pre-rendering or pre-loaded by main.tsx, else loaded once when needed. */
export function useLoaded<T>(given: T | undefined, needed: boolean, load: () => Promise<T>, what: string): T | undefined {
  const [value, setValue] = useState(given);
  useEffect(() => {
    if (value || !needed) return;
    let live = true;
    load()
      .then((x) => {
        if (live) startTransition(() => setValue(x));
      })
      .catch((e) => reportError(e, { where: what }));
    return () => {
      live = false;
    };
  }, [value, needed, load, what]);
  return value;
}

/**
 * The calculator's part of the page (an island, issue 28): the skeleton while the state data
 * or the calculator's code loads, the load error, or the calculator in its error boundary.
 */
export function CalculatorSection({ lang, data, retry, H }: { lang: Lang; data: Data; retry: () => void; H?: HomePartsModule }) {
  const { t } = useTranslation();
  const [boundaryKey, setBoundaryKey] = useState(0);
  const edition = data.status === 'ready' ? data.edition : undefined;
  return (
    <>
      {(data.status === 'loading' || (edition && !H)) && (
        <div className="calc-grid" id="calculator">
          <FormSkeleton />
          <section className="card">
            <ResultsSkeleton />
          </section>
        </div>
      )}
      {data.status === 'error' && (
        <ErrorPanel
          testId="load-error"
          id="calculator"
          heading={<h2>{t('error.loadTitle')}</h2>}
          text={t('toast.loadFailed')}
          retry={t('error.tryAgain')}
          onRetry={retry}
        />
      )}
      {edition && H && (
        <ErrorBoundary
          key={boundaryKey}
          fallback={(error, reset) => (
            <ErrorPanel
              testId="error-boundary"
              id="calculator"
              heading={<h2>{t('error.calculatorTitle')}</h2>}
              text={error.message || t('error.generic')}
              textTestId="error-message"
              retry={t('error.tryAgain')}
              onRetry={() => {
                reset();
                setBoundaryKey((k) => k + 1);
              }}
            />
          )}
        >
          <div id="calculator">
            <H.Calculator edition={edition} lang={lang} />
          </div>
        </ErrorBoundary>
      )}
    </>
  );
}

/**
 * The calculator island in the browser (hydrateIslands.tsx). On a pre-rendered calculator page
 * the island is hydrated once the state data (`initial`) and the calculator's code (`home`)
 * are there, over the build's real form; without them (a page rendered afresh, a failed load)
 * it shows the skeleton while they load (`preload`, shared with the tools island).
 */
export function CalculatorIsland({
  lang,
  preload,
  initial,
  home,
}: {
  lang: Lang;
  preload?: () => Promise<LoadedState>;
  initial?: LoadedState;
  home?: HomePartsModule;
}) {
  const { data, retry } = useStateData(undefined, initial, preload);
  const H = useLoaded(home, true, loadHomeParts, 'calculator');
  return <CalculatorSection lang={lang} data={data} retry={retry} H={H} />;
}
