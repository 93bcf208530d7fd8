/** The edition, fixed at build time (VITE_STATE, default NY): a module of its own, so the entry knows it without the state data's code (issue 28). */
export const EDITION: string = (import.meta.env.VITE_STATE || 'NY').toUpperCase();
/**
 * Whether this build holds the hub's national text (i18n hub.en.ts, hub.es.ts): the hub's
 * build, development, tests and the pre-render do; a state edition's browser build does not
 * (issue 28: 3 KB gzip its pages never show). Vite replaces both values at build time.
 */
export const HUB_TEXT: boolean = import.meta.env.SSR || !import.meta.env.VITE_STATE || EDITION === 'HUB';
