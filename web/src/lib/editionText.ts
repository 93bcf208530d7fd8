/**
 * What differs between the editions in words: the state's name, its people, its
 * exemptions and the authority to verify with (i18n keys with the edition as context,
 * `edition.people_TX`), and where each edition is served.
 */
import type { TFunction } from 'i18next';

/** The four state editions, in the order the hub lists them. */
export const STATE_EDITIONS = ['NY', 'TX', 'CA', 'FL'] as const;

export type EditionVars = { [key: string]: string | number; state: string; people: string; exemptions: string; authority: string; count: number | string };

export function editionVars(t: TFunction, code: string, stateName?: string, count?: number): EditionVars {
  const c = { context: code };
  return {
    state: stateName ?? t(`states.${code}`, { defaultValue: code }),
    people: t('edition.people', c),
    exemptions: t('edition.exemptions', c),
    authority: t('edition.authority', c),
    count: count ?? '',
  };
}

/**
 * The address of an edition's site. The site server maps host names to editions
 * (`ny.localhost`, … by default; PTAX_SITES in production) and tells the page its map
 * (`sites`); without it, on a loopback host the edition is `<code>.localhost` on the same
 * port, elsewhere `<code>.<domain>`.
 */
export function editionUrl(code: string, where: { protocol: string; hostname: string; port: string }, sites?: Record<string, string>): string {
  const known = sites?.[code];
  if (known) return known;
  const loopback = where.hostname === 'localhost' || where.hostname === '127.0.0.1' || where.hostname === '[::1]' || where.hostname.endsWith('.localhost');
  const base = loopback ? 'localhost' : where.hostname.replace(/^(www|ny|tx|ca|fl)\./, '');
  return `${where.protocol}//${code.toLowerCase()}.${base}${where.port ? `:${where.port}` : ''}/`;
}
