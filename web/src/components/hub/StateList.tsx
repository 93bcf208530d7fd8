/**
 * Every state and DC on the hub's home page (issue 26), with a search by name in either
 * language ("Nueva Jersey" and "new jersey" both find New Jersey). A full edition links to
 * its own site; a county-level state to its page on the hub (/ohio, /es/ohio).
 */
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../../lib/format.js';
import { fold, hubPath, type HubState } from './hubTypes.js';
import { compareNames } from '../../lib/names.js';

export function StateList({ lang, states, editionHref }: { lang: Lang; states: readonly HubState[]; editionHref: (code: string) => string }) {
  const { t } = useTranslation();
  const id = useId();
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const q = fold(query);
    if (!q) return states;
    return states.filter((s) => fold(s.name.en).includes(q) || fold(s.name.es).includes(q) || s.code.toLowerCase() === q);
  }, [states, query]);
  const byName = useMemo(() => [...shown].sort((a, b) => compareNames(a.name[lang], b.name[lang], lang)), [shown, lang]);
  return (
    <section className="hub-states" aria-labelledby={`${id}title`} data-testid="state-list">
      <h2 id={`${id}title`}>{t('hubStates.listTitle')}</h2>
      <div className="field">
        <label htmlFor={`${id}q`}>{t('hubStates.searchLabel')}</label>
        <input
          id={`${id}q`}
          type="search"
          autoComplete="off"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          aria-describedby={`${id}help ${id}count`}
          data-testid="state-search"
        />
        <p id={`${id}help`} className="help">
          {t('hubStates.searchHelp')}
        </p>
      </div>
      <p id={`${id}count`} className="help" aria-live="polite" data-testid="state-count">
        {byName.length ? t('hubStates.shown', { count: byName.length }) : t('hubStates.searchEmpty', { query })}
      </p>
      <ul className="hub-state-list">
        {byName.map((s) => (
          <li key={s.code} data-testid="state-item" data-code={s.code}>
            <a href={s.tier === 'edition' ? editionHref(s.code) : hubPath(lang, s.slug)} data-testid={`state-link-${s.code.toLowerCase()}`}>
              {s.name[lang]}
            </a>{' '}
            <span className="help">
              {s.tier === 'edition' ? t('hubStates.full') : t('hubStates.countyLevel')} · {t('hubStates.counties', { count: s.counties })}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What each tier covers and what it does not (the hub and every state page say it). */
export function TierNote() {
  const { t } = useTranslation();
  return (
    <aside className="hub-tiers" role="note" aria-label={t('hubStates.tiersTitle')} data-testid="tier-note">
      <h2>{t('hubStates.tiersTitle')}</h2>
      <p>{t('hubStates.tierFull')}</p>
      <p>{t('hubStates.tierCountyCovers')}</p>
      <p>{t('hubStates.tierCountyNot')}</p>
    </aside>
  );
}
