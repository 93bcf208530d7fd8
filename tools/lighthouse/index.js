// What scripts/budget.ts (`npm run budget`) loads from this folder's own install
// (`npm ci --prefix tools/lighthouse`): Lighthouse 13 and the launcher of Debian's Chromium.
export { default as lighthouse } from 'lighthouse';
export { launch } from 'chrome-launcher';
