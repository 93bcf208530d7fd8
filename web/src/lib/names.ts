/** Sorting names without Intl where it can (a module of its own: the hub's first load imports it alone). */

/**
 * `a.localeCompare(b, lang)` without Intl where it can (issue 28: the first collator a page
 * creates costs Chromium 30 ms or more of main-thread CPU, and New York's county list sorts its
 * boroughs on the calculator's first render). For two names of ASCII letters and spaces that
 * differ other than by case, the order is the lower-cased names' code units (the collation's
 * primary order: a space before the letters, letters alphabetical, case ignored); anything
 * else goes to localeCompare. places.test.ts compares both.
 */
export function compareNames(a: string, b: string, lang: string): number {
  const plain = /^[A-Za-z ]*$/;
  if (plain.test(a) && plain.test(b)) {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.localeCompare(b, lang);
}
