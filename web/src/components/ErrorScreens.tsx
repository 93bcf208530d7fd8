/** The error screens of seed 001 §8, in the page's language. */
import { useEffect, type ReactNode } from 'react';
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

/**
 * The panel of every error below the app level (a page, a section, the calculator, the
 * state data): an alert with an optional heading, its text, the retry button (the throw
 * probe disarmed first, so a retry after `?__throw=` works) and optional links after it.
 */
export function ErrorPanel({
  testId,
  heading,
  text,
  textTestId,
  retry,
  onRetry,
  card = true,
  small = false,
  id,
  children,
}: {
  testId: string;
  heading?: ReactNode;
  text: ReactNode;
  textTestId?: string;
  retry: string;
  onRetry: () => void;
  card?: boolean;
  small?: boolean;
  id?: string;
  children?: ReactNode;
}) {
  const button = (
    <button
      type="button"
      className={small ? 'btn btn-small' : 'btn btn-primary'}
      onClick={() => {
        disarmThrowProbe();
        onRetry();
      }}
    >
      {retry}
    </button>
  );
  const Tag = card ? 'section' : 'div';
  return (
    <Tag className={card ? 'card error-panel' : 'error-panel'} role="alert" data-testid={testId} id={id}>
      {heading}
      <p data-testid={textTestId}>{text}</p>
      {children ? (
        <p className="actions">
          {button}
          {children}
        </p>
      ) : (
        button
      )}
    </Tag>
  );
}

/** One page failed: 'Page Error', Try Again and Go Home; the header and footer stay. */
export function PageError({ reset, home }: { reset: () => void; home: string }) {
  const { t } = useTranslation();
  return (
    <ErrorPanel testId="page-error" heading={<h1>{t('error.pageTitle')}</h1>} text={t('error.pageText')} retry={t('error.tryAgain')} onRetry={reset}>
      <a className="btn btn-ghost" href={home}>
        {t('error.goHome')}
      </a>
    </ErrorPanel>
  );
}

/** One section failed: its message and Retry; the rest of the page keeps working. */
export function SectionError({ reset }: { reset: () => void }) {
  const { t } = useTranslation();
  return <ErrorPanel testId="section-error" card={false} small text={t('error.sectionText')} retry={t('error.retry')} onRetry={reset} />;
}
