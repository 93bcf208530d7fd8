/** The error screens of seed 001 §8, in the page's language. */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { disarmThrowProbe } from './ErrorBoundary.js';

/** The whole page failed: 'Something went wrong', the edition in the sentence, an error id, Reload Page and Go Home. */
export function AppError({ stateName, errorId, home }: { stateName: string; errorId: string; home: string }) {
  const { t } = useTranslation();
  useEffect(() => {
    document.documentElement.dataset.ready = '1';
  }, []);
  return (
    <main className="wrap error-screen" role="alert" data-testid="app-error">
      <h1>{t('error.appTitle')}</h1>
      <p>{t('error.appText', { state: stateName })}</p>
      <p>
        {t('error.errorId')}: <code data-testid="error-id">{errorId}</code>
      </p>
      <p className="actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            disarmThrowProbe();
            location.reload();
          }}
        >
          {t('error.reload')}
        </button>
        <a className="btn btn-ghost" href={home}>
          {t('error.goHome')}
        </a>
      </p>
    </main>
  );
}

/** One page failed: 'Page Error', Try Again and Go Home; the header and footer stay. */
export function PageError({ reset, home }: { reset: () => void; home: string }) {
  const { t } = useTranslation();
  return (
    <section className="card error-panel" role="alert" data-testid="page-error">
      <h1>{t('error.pageTitle')}</h1>
      <p>{t('error.pageText')}</p>
      <p className="actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            disarmThrowProbe();
            reset();
          }}
        >
          {t('error.tryAgain')}
        </button>
        <a className="btn btn-ghost" href={home}>
          {t('error.goHome')}
        </a>
      </p>
    </section>
  );
}

/** One section failed: its message and Retry; the rest of the page keeps working. */
export function SectionError({ reset }: { reset: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="error-panel" role="alert" data-testid="section-error">
      <p>{t('error.sectionText')}</p>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => {
          disarmThrowProbe();
          reset();
        }}
      >
        {t('error.retry')}
      </button>
    </div>
  );
}
