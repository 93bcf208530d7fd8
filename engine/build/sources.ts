/**
 * Which hosts count as primary sources for a rule's citation (docs/sources.md): the
 * statute, the agency that applies it, or the official data set. `ptax validate` warns on a
 * citation elsewhere (news, blogs, statute mirrors, exam-prep sites, staging hosts) and
 * fails on one with --strict-sources. A product convention cites the site's own page
 * (`convention: /how-it-works#convention-…`), never a repository file.
 */

/** Government domains: federal, state and local (.gov), and the states' own .us domains. */
const GOVERNMENT = [/\.gov$/, /^([a-z0-9-]+\.)*state\.[a-z]{2}\.us$/, /^([a-z0-9-]+\.)*(ny|tx|ca|fl)\.us$/];

/**
 * Official offices and publishers that do not sit on a government domain, each with what it is.
 * Add a host here only with the office that runs it.
 */
export const OFFICIAL_HOSTS: Record<string, string> = {
  // Not the City's own site: docs/sources.md says why it is listed and what was not confirmed.
  'codelibrary.amlegal.com': "American Legal Publishing's code library: New York City's Charter, Administrative Code and Rules as amended",
  'floridarevenue.com': 'Florida Department of Revenue',
  'bcpa.net': 'Broward County Property Appraiser (Florida)',
  'scpafl.org': 'Sarasota County Property Appraiser (Florida)',
  'okeechobeepa.com': 'Okeechobee County Property Appraiser (Florida)',
  'asrclkrec.com': 'Riverside County Assessor-County Clerk-Recorder (California)',
};

/** The host of a citation's link, or undefined when it is not an http(s) URL. */
export function hostOf(href: string): string | undefined {
  try {
    const u = new URL(href);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a link points to a primary source's host. */
export function isPrimarySource(href: string): boolean {
  const host = hostOf(href);
  if (!host) return false;
  return GOVERNMENT.some((re) => re.test(host)) || host.replace(/^www\./, '') in OFFICIAL_HOSTS;
}

export const sourceWarning = (href: string): string =>
  `source ${hostOf(href) ?? href} is not a primary source (statute, agency page or official data set; docs/sources.md lists the hosts)`;
