/** Loading placeholders for the form and the results (seed 000 §2). */
import { useTranslation } from 'react-i18next';

export function FormSkeleton() {
  const { t } = useTranslation();
  return (
    <section className="card skeleton" aria-busy="true" data-testid="form-skeleton">
      <p className="sr-only" role="status">
        {t('form.loading')}
      </p>
      {[0, 1, 2, 3, 4, 5].map((i) => (
        <div key={i} className="sk-line" aria-hidden="true" />
      ))}
      <div className="sk-button" aria-hidden="true" />
    </section>
  );
}

export function ResultsSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="skeleton" aria-busy="true" data-testid="results-skeleton">
      <p className="sr-only" role="status">
        {t('results.loading')}
      </p>
      <div className="sk-figure" aria-hidden="true" />
      {[0, 1, 2, 3, 4].map((i) => (
        <div key={i} className="sk-line" aria-hidden="true" />
      ))}
    </div>
  );
}
