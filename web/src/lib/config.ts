/**
 * Timings and UI thresholds of the page (not tax figures: those come from the rule data).
 * Each comes from the seed section named beside it.
 */
export const UI = {
  /** Seed 000 §4/§9: the calculation is deliberately delayed by 500 ms. */
  calculationDelayMs: 500,
  /** Seed 000 §9: newsletter popup 3 s after the first successful calculation, closes 3 s after success. */
  popupDelayMs: 3000,
  popupAutoCloseMs: 3000,
  /** Seed 000 §5: warning toasts for a very high or a very low home value. */
  veryHighValue: 10_000_000,
  veryLowValue: 10_000,
  // How long the inputs rest before a shown result follows them (ms).
  liveUpdateMs: 350,
  /** Seed 000 §8 / seed 001 §9: toasts 4000 ms by default, 3 visible; the failure toast 6 s. */
  toastMs: 4000,
  toastFailureMs: 6000,
  toastsVisible: 3,
  /** Seed 000 §9: wizard analytics fire above 50,000; high-value analytics above 500,000. */
  wizardAnalyticsMinValue: 50_000,
  highValueAnalytics: 500_000,
  /** Seed 000 §9: mobile breakpoint. */
  mobileBreakpointPx: 768,
} as const;

/** Disabled veteran levels offered (seed 000 §3: none, or 10% to 100% in steps of 10). */
export const VETERAN_LEVELS = ['10', '20', '30', '40', '50', '60', '70', '80', '90', '100'] as const;
/** The wizard groups the same levels in the seed's ranges (10-30%, 31-70%, 71-100%). */
export const VETERAN_RANGES: Array<{ key: string; levels: string[] }> = [
  { key: 'low', levels: ['10', '20', '30'] },
  { key: 'mid', levels: ['40', '50', '60', '70'] },
  { key: 'high', levels: ['80', '90', '100'] },
];
/** Property types offered (seed 000 §3: class1, class2, class4; class3 exists only in the rate table). */
export const PROPERTY_TYPES = ['class1', 'class2', 'class4'] as const;
/** Classes without residential exemptions (rules reference: class3 and class4). */
export const COMMERCIAL_TYPES: readonly string[] = ['class4'];
/** External page on commercial (class 4) exemptions, opened in a new tab. */
/** NYC Department of Finance, exemptions and abatements for commercial and construction property. */
export const COMMERCIAL_EXEMPTIONS_URL = 'https://www.nyc.gov/site/finance/property/benefits-for-construction.page';

/**
 * The free tax-filing link under a result (seed 001 §1, issue 24), configured here only:
 * `VITE_FILING_AFFILIATE_URL` at build time makes it a partner's (sponsored) link, disclosed
 * on the affiliate disclosure page; without it, the IRS's Free File page, a real free filing
 * service with which ptax has no affiliation.
 */
const AFFILIATE_URL = (import.meta.env?.VITE_FILING_AFFILIATE_URL as string | undefined)?.trim();
export const FILING_LINK: { href: string; affiliate: boolean } = AFFILIATE_URL
  ? { href: AFFILIATE_URL, affiliate: true }
  : { href: 'https://www.irs.gov/filing/free-file-do-your-federal-taxes-for-free', affiliate: false };
