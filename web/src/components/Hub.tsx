/**
 * The hub (seed 001 §1, the neutral variant; issue 26 the national entry): what ptax is, a
 * card per state edition linking to it, every state and DC with a search by name (the
 * county-level states link to their pages here), and what each tier covers.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STATE_EDITIONS, editionName, editionUrl, phrase } from '../lib/editionText.js';
import type { Lang } from '../lib/format.js';
import { StateList, TierNote } from './hub/StateList.js';
import type { HubState } from './hub/hubTypes.js';

/** The list of states (web/scripts/build-hub-data.mjs; empty where the build has not written it). */
const HUB_STATES: readonly HubState[] =
  Object.values(import.meta.glob<HubState[]>('../generated/hub/states.json', { eager: true, import: 'default' }))[0] ?? [];

/** The site server's host map (GET /api/sites), when it has one: edition code → address. */
async function fetchSites(): Promise<Record<string, string> | undefined> {
  try {
    const res = await fetch('/api/sites', { headers: { accept: 'application/json' } });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { sites?: Record<string, string> };
    return body.sites && typeof body.sites === 'object' ? body.sites : undefined;
  } catch {
    return undefined;
  }
}

export function Hub({ lang }: { lang: Lang }) {
  const { t } = useTranslation();
  const [sites, setSites] = useState<Record<string, string> | undefined>();
  const [where, setWhere] = useState<{ protocol: string; hostname: string; port: string } | null>(null);
  useEffect(() => {
    setWhere({ protocol: location.protocol, hostname: location.hostname, port: location.port });
    let live = true;
    void fetchSites().then((s) => {
      if (live) setSites(s);
    });
    return () => {
      live = false;
    };
  }, []);
  const href = (code: string) => {
    const base = where ? editionUrl(code, where, sites) : `http://${code.toLowerCase()}.localhost/`;
    return lang === 'es' ? `${base.replace(/\/$/, '')}/es` : base;
  };
  return (
    <section className="hub" aria-labelledby="hub-editions" data-testid="hub">
      <p className="hub-intro">{t('hub.intro')}</p>
      <h2 id="hub-editions">{t('hub.choose')}</h2>
      <ul className="hub-cards">
        {STATE_EDITIONS.map((code) => (
          <li key={code} className="card hub-card" data-testid={`hub-${code.toLowerCase()}`}>
            <h3>{editionName(code, lang)}</h3>
            <p>{phrase(code, 'offers', lang)}</p>
            <a className="btn btn-primary" href={href(code)} data-testid={`hub-link-${code.toLowerCase()}`}>
              {t('hub.open', { state: editionName(code, lang) })}
            </a>
          </li>
        ))}
      </ul>
      <p className="help">{t('hub.private')}</p>
      {HUB_STATES.length > 0 && (
        <>
          <StateList lang={lang} states={HUB_STATES} editionHref={href} />
          <TierNote />
        </>
      )}
    </section>
  );
}
