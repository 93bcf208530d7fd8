import type { SiteMap } from '../config.js';
import type { Language } from '../http/messages.js';
import type { StateCode } from '../validation/states.js';

/** The pages of the mail flows, per language (English at the root, Spanish under /es). */
export const PAGE_PATHS = {
  confirm: { en: '/confirm', es: '/es/confirmar' },
  unsubscribe: { en: '/unsubscribe', es: '/es/cancelar-suscripcion' },
  deleteRequest: { en: '/delete-my-data', es: '/es/borrar-mis-datos' },
  deleteConfirm: { en: '/delete-my-data/confirm', es: '/es/borrar-mis-datos/confirmar' },
} as const satisfies Record<string, Record<Language, string>>;

export type PageName = keyof typeof PAGE_PATHS;

/**
 * Builds the absolute links put in mails. They never come from the request (its Host header
 * is the sender's to choose): the base is PTAX_PUBLIC_URL, or the address the server listens
 * on; an edition's link uses the edition's first host in the host map (PTAX_SITES) with the
 * base's scheme and port, so a Texas subscriber's links go to the Texas site.
 */
export class LinkBuilder {
  constructor(
    private readonly base: () => string,
    private readonly sites: SiteMap,
  ) {}

  link(page: PageName, language: Language, state: StateCode | '' | null, token?: string): string {
    const url = new URL(this.base());
    const host = state ? [...this.sites].find(([, edition]) => edition === state)?.[0] : undefined;
    if (host !== undefined) url.hostname = host;
    url.pathname = PAGE_PATHS[page][language];
    url.search = token === undefined ? '' : `?token=${token}`;
    url.hash = '';
    return url.toString();
  }
}
