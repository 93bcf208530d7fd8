/** Where things are: the repository root and Debian's Chromium (never a downloaded browser). */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Debian's old headless shell (package chromium-headless-shell, the same Chromium release as
 * the package chromium, the headless mode Playwright itself uses by default) when it is
 * installed, else Debian's full Chromium in its new headless mode. The shell is the binary
 * itself, not /usr/bin/chromium-headless-shell (a shell script that runs it as a child).
 * The shell has no browser user interface to run, headless or not: a11y.e2e.test.ts took
 * 15.5 s of CPU with it against 20.5-20.6 s with the full browser (from /usr/bin/chromium or
 * its binary), at load 10-13 (issue 23, 2026-11-27). PTAX_CHROMIUM chooses another binary.
 */
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const CHROMIUM = process.env.PTAX_CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
