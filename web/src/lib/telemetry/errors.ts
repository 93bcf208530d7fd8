/**
 * Uncaught errors and unhandled rejections for analytics (seed 001 §8): known third-party
 * script errors (an undefined tracker and the like) are ignored; the others are reported as
 * non-fatal `exception` events and their default handling is suppressed. Default handling
 * is suppressed only for an error that was actually reported (with consent), so without
 * consent the browser's console still shows every error.
 */
const THIRD_PARTY = [
  /\b(gtag|ga|fbq|_gaq|_paq|dataLayer|googletag|adsbygoogle|clarity|hj|twq|pintrk|ttq|_hsq|Intercom|__tcfapi)\b.*\b(is not defined|is not a function|undefined)/i,
  /Can't find variable: (gtag|ga|fbq|_gaq|googletag|adsbygoogle)/i,
  /^Script error\.?$/i,
  /(googletagmanager|google-analytics|doubleclick|googlesyndication|facebook\.net|connect\.facebook)/i,
];

/** A known third-party script error (by its message or its script's URL). */
export function isThirdPartyError(message: string, source?: string): boolean {
  if (THIRD_PARTY.some((re) => re.test(message))) return true;
  return source ? THIRD_PARTY[3]!.test(source) : false;
}

/** What the analytics event says about an error: its message, cut to 150 characters. */
export function describeError(reason: unknown): string {
  const msg = reason instanceof Error ? `${reason.name}: ${reason.message}` : typeof reason === 'string' ? reason : 'Unknown error';
  return msg.slice(0, 150);
}

/** `report` returns whether the event was sent. Returns the remover. */
export function installErrorHandlers(win: Window, report: (params: { description: string; fatal: false }) => boolean): () => void {
  const onError = (e: ErrorEvent) => {
    const message = e.message || describeError(e.error);
    if (isThirdPartyError(message, e.filename)) return;
    if (report({ description: describeError(e.error ?? message), fatal: false })) e.preventDefault();
  };
  const onRejection = (e: PromiseRejectionEvent) => {
    const description = describeError(e.reason);
    if (isThirdPartyError(description)) return;
    if (report({ description, fatal: false })) e.preventDefault();
  };
  win.addEventListener('error', onError);
  win.addEventListener('unhandledrejection', onRejection);
  return () => {
    win.removeEventListener('error', onError);
    win.removeEventListener('unhandledrejection', onRejection);
  };
}
