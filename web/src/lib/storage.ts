/** localStorage that never throws (private mode, disabled storage). */
export const KEYS = {
  county: 'ptax.selectedCounty',
  popupShown: 'ptax.newsletterPopupShown',
  popupDismissed: 'ptax.newsletterPopupDismissed',
  preferredLanguage: 'preferredLanguage',
  totalCalculations: 'total_calculations',
} as const;

export function getItem(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function setItem(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    /* storage unavailable: the preference is simply not kept */
  }
}
