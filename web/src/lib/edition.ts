/** The edition, fixed at build time (VITE_STATE, default NY): a module of its own, so the entry knows it without the state data's code (issue 28). */
export const EDITION: string = (import.meta.env.VITE_STATE || 'NY').toUpperCase();
