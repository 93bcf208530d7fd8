/** Where things are: the repository root and Debian's Chromium (never a downloaded browser). */
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
/**
 * Debian's chromium, as the team's guide names it. Measured and not taken (issue 23, 2026-11-27):
 * Debian's old headless shell (package chromium-headless-shell, PTAX_CHROMIUM=/usr/lib/chromium/
 * chromium-headless-shell) ran every file, and a11y.e2e.test.ts cost 42.5 s of CPU against 48.3 s
 * here (a cpuacct cgroup; /usr/bin/time, which misses most of Chromium's processes, said 16.3
 * against 20.5 s).
 */
export const CHROMIUM = process.env.PTAX_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
