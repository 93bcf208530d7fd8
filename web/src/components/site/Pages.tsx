/**
 * The site's pages around the calculator (seed 001 §2): text pages (about, privacy, terms,
 * disclaimer, affiliate disclosure), how it works with the product's conventions read from
 * the rule files, the county list and a page per county with figures from the engine, and
 * the page-not-found screen.
 */
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_VALUE, type ParameterDef } from '../../../../engine/index.js';
import { calculate, defaultForm, type Edition } from '../../lib/model.js';
import { formatPercent, formatUsd, type Lang } from '../../lib/format.js';
import { countyName } from '../../lib/places.js';
import { conventionAnchor, pathOf, type Site } from '../../lib/routes.js';
import { shareQuery } from '../../lib/shareLink.js';
import { Breadcrumbs } from './Layout.js';

type TextPageId = 'about' | 'privacy' | 'terms' | 'disclaimer' | 'affiliate';

export function TextPage({ id, lang, site, vars }: { id: TextPageId; lang: Lang; site: Site; vars: Record<string, string | number> }) {
  const { t } = useTranslation();
  const body = t(`site.${id}.body`, { returnObjects: true, ...vars }) as unknown as string[];
  return (
    <article className="page" data-testid={`page-${id}`}>
      <Breadcrumbs lang={lang} site={site} trail={[]} current={t(`site.${id}.title`)} />
      <h1>{t(`site.${id}.title`)}</h1>
      {body.map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </article>
  );
}

/** A parameter is a product convention when its sources are the project's own notes, not a public document. */
export function isConvention(p: ParameterDef): boolean {
  const refs = (p.values ?? []).flatMap((v) => (v as { reference?: Array<{ href?: string; convention?: unknown }> }).reference ?? []);
  // A convention entry (`convention:` in the rule file), or only the project's own notes as sources.
  return refs.some((r) => r.convention !== undefined && r.convention !== false) || (refs.length > 0 && refs.every((r) => !/^https?:\/\//.test(r.href ?? '')));
}

/** A convention's current figure, by its unit ('' for tables, shown by their own pages). */
function conventionValue(p: ParameterDef, lang: Lang): string {
  const v = (p.values ?? []).at(-1)?.value;
  if (typeof v !== 'number') return '';
  if (p.unit === 'percent') return formatPercent(v, lang);
  if (p.unit === 'fraction') return formatPercent(v * 100, lang, 0);
  if (p.unit === 'usd') return formatUsd(v, lang);
  return String(v);
}

export function HowItWorks({ edition, lang, site }: { edition?: Edition; lang: Lang; site: Site }) {
  const { t } = useTranslation();
  const steps = t('site.howItWorks.steps', { returnObjects: true }) as unknown as string[];
  const conventions = edition ? Object.values(edition.bundle.parameters).filter(isConvention) : [];
  return (
    <article className="page" data-testid="page-how-it-works">
      <Breadcrumbs lang={lang} site={site} trail={[]} current={t('site.howItWorks.title')} />
      <h1>{t('site.howItWorks.title')}</h1>
      <ol className="steps">
        {steps.map((s, i) => (
          <li key={i}>{s}</li>
        ))}
      </ol>
      <h2>{t('site.howItWorks.sourcesTitle')}</h2>
      <p>{t('site.howItWorks.sourcesText')}</p>
      <h2 id="conventions">{t('site.howItWorks.conventionsTitle')}</h2>
      <p>{t('site.howItWorks.conventionsIntro')}</p>
      {conventions.length > 0 && (
        <dl className="rows conventions" data-testid="conventions">
          {conventions.map((p) => (
            <div className="row" key={p.id} id={conventionAnchor(p.id)}>
              <dt>{p.label?.[lang] ?? p.label?.en ?? p.id}</dt>
              <dd>{conventionValue(p, lang)}</dd>
            </div>
          ))}
        </dl>
      )}
    </article>
  );
}

export function NotFound({ lang, site }: { lang: Lang; site: Site }) {
  const { t } = useTranslation();
  return (
    <article className="page" data-testid="page-not-found">
      <h1>{t('site.notFound.title')}</h1>
      <p>{t('site.notFound.text')}</p>
      <p>
        <a className="btn btn-primary" href={pathOf({ page: 'home' }, lang, site)}>
          {t('site.notFound.home')}
        </a>
      </p>
    </article>
  );
}

export function CountiesPage({ edition, lang, site }: { edition: Edition; lang: Lang; site: Site }) {
  const { t } = useTranslation();
  const state = edition.stateName[lang];
  const sorted = [...edition.counties].sort((a, b) => countyName(a.name, t).localeCompare(countyName(b.name, t), lang));
  return (
    <article className="page" data-testid="page-counties">
      <Breadcrumbs lang={lang} site={site} trail={[]} current={t('nav.counties')} />
      <h1>{t('site.counties.title', { state })}</h1>
      <p>{t('site.counties.intro')}</p>
      <ul className="county-links">
        {sorted.map((c) => (
          <li key={c.slug}>
            <a href={pathOf({ page: 'county', param: c.slug }, lang, site)}>{countyName(c.name, t)}</a>
            {c.rate !== null && !c.needsPropertyType && <span className="help"> {formatPercent(c.rate, lang)}</span>}
          </li>
        ))}
      </ul>
    </article>
  );
}

/** A county's page: its rate and split, the tax on a typical home (the engine's figures), the exemptions of the state, and the calculator preset to it. */
export function CountyPage({ edition, slug, lang, site }: { edition: Edition; slug: string; lang: Lang; site: Site }) {
  const { t } = useTranslation();
  const state = edition.stateName[lang];
  const county = edition.counties.find((c) => c.slug === slug);
  if (!county) return <NotFound lang={lang} site={site} />;
  const name = countyName(county.name, t);
  const classType = county.needsPropertyType ? 'class1' : '';
  const form = { ...defaultForm(edition), county: county.name, homeValue: DEFAULT_VALUE, propertyType: classType as '' };
  const r = calculate(edition, form, lang);
  const medians = edition.state.countiesMeta?.medianValue;
  // The estimate on the county's own median home value and on the state's typical one (counties file `median_value`).
  const atMedians = [
    { id: 'county-median', value: county.medianValue, label: 'site.county.atCountyMedian' },
    { id: 'state-median', value: medians?.state ?? null, label: 'site.county.atStateMedian' },
  ].flatMap((m) => (m.value ? [{ ...m, value: m.value, tax: calculate(edition, { ...form, homeValue: m.value }, lang).annualTax }] : []));
  const classLabel = classType ? ` · ${t(`propertyType.${classType}`, { rate: '' }).replace(/\s*\(\s*\)$/, '')}` : '';
  const preset = `${pathOf({ page: 'home' }, lang, site)}?${shareQuery(form, edition)}`;
  const exemptions = edition.state.profile?.exemptions ?? [];
  return (
    <article className="page county-page" data-testid="page-county" data-county={slug}>
      <Breadcrumbs lang={lang} site={site} trail={['counties']} current={name} />
      <h1>{t('site.county.title', { county: name, state })}</h1>
      <p className="help">{t('site.county.year', { year: r.year })}</p>
      <dl className="rows">
        <div className="row">
          <dt>{t('site.county.rate')}</dt>
          <dd data-testid="county-rate" data-value={county.rate ?? ''}>
            {county.needsPropertyType ? t('site.county.byClass') : county.rate === null ? t('site.county.noRate') : formatPercent(county.rate, lang, 3)}
          </dd>
        </div>
        {county.typicalRate !== null && !county.needsPropertyType && (
          <div className="row">
            <dt>
              {t('site.county.typicalRate')} <span className="help">{t('site.county.typicalRateHelp')}</span>
            </dt>
            <dd data-testid="county-typical-rate" data-value={county.typicalRate}>
              {formatPercent(county.typicalRate, lang, 3)}
            </dd>
          </div>
        )}
        <div className="row">
          <dt>
            {t('site.county.estimateTitle')} · {t('site.county.atValue', { value: formatUsd(DEFAULT_VALUE, lang) })}
            {classLabel}
          </dt>
          <dd data-testid="county-tax" data-value={r.annualTax}>
            {formatUsd(r.annualTax, lang)}
          </dd>
        </div>
        <div className="row">
          <dt>{t('results.monthlyTax')}</dt>
          <dd data-testid="county-monthly" data-value={r.monthlyTax}>
            {formatUsd(r.monthlyTax, lang)}
          </dd>
        </div>
        {atMedians.map((m) => (
          <div className="row" key={m.id}>
            <dt>
              {t('site.county.estimateTitle')} · {t(m.label, { value: formatUsd(m.value, lang), state })}
              {classLabel}
            </dt>
            <dd data-testid={`county-tax-${m.id}`} data-home-value={m.value} data-value={m.tax}>
              {formatUsd(m.tax, lang)}
            </dd>
          </div>
        ))}
      </dl>
      <p className="help">{t('site.county.noExemptions')}</p>
      {medians && (
        <p className="help" data-testid="county-median-note">
          {t('site.county.medianNote', { state })}{' '}
          {medians.reference.map((ref, i) => (
            <Fragment key={ref.href ?? i}>
              {i > 0 && '; '}
              <a href={ref.href} lang={lang === 'es' ? 'en' : undefined}>
                {ref.title}
              </a>
            </Fragment>
          ))}
        </p>
      )}
      <h2>{t('site.county.split')}</h2>
      <dl className="rows">
        {(['school', 'county', 'city', 'special'] as const).map((k) => (
          <div className="row" key={k}>
            <dt>{t(`results.${k}`)}</dt>
            <dd data-testid={`county-split-${k}`} data-value={r.breakdown[k]}>
              {formatUsd(r.breakdown[k], lang)}
            </dd>
          </div>
        ))}
      </dl>
      {exemptions.length > 0 && (
        <>
          <h2>{t('site.county.exemptions')}</h2>
          <ul>
            {exemptions.map((e) => (
              <li key={e.id}>{e.label[lang] ?? e.label.en}</li>
            ))}
          </ul>
        </>
      )}
      <p>
        <a className="btn btn-primary" href={preset} data-testid="county-open-calculator">
          {t('site.county.open', { county: name })}
        </a>
      </p>
    </article>
  );
}
