/**
 * `--explain`: each step shows its own statute reference (`reference:` on the step in the
 * program) under its expression, besides the parameters' citations.
 */
import { describe, expect, it } from 'vitest';
import { Calculator } from '../engine/node.js';
import { readBundle } from '../engine/node.js';
import { formatExplanation, loadTexts } from './format.js';

const calc = new Calculator(readBundle('dist/rules/bundle.json'));

describe('formatExplanation', () => {
  it('a Texas homestead: the school homestead step cites Tax Code §11.13, a step without a reference shows none', async () => {
    const r = calc.calculate({ state: 'TX', county: 'Harris', value: 300000, homestead: true }, { explain: true });
    const text = formatExplanation(r, 'en', calc.bundle.programs[r.program]);
    const lines = text.split('\n');
    const i = lines.findIndex((l) => l.includes('[tx.homesteadSchoolValue]'));
    expect(lines[i + 1]).toBe('      rule: Texas Tax Code §11.13, residence homestead <https://statutes.capitol.texas.gov/Docs/TX/htm/TX.11.htm#11.13>');
    const j = lines.findIndex((l) => l.includes('[tx.schoolAfterHomestead]'));
    expect(lines[j + 1]).not.toMatch(/^\s+rule:/);
    // In Spanish the line is labelled "regla" (the Spanish texts are loaded first, as `ptax --lang es` does).
    await loadTexts('es');
    expect(formatExplanation(r, 'es', calc.bundle.programs[r.program])).toContain('      regla: Código Tributario de Texas §11.13');
  });

  it('without the program, a step reference carried by the explanation data is still shown', () => {
    const r = calc.calculate({ state: 'TX', county: 'Harris', value: 300000, homestead: true }, { explain: true });
    const withRef = {
      ...r,
      explanation: r.explanation!.map((s) => (s.rule === 'tx.homesteadSchoolValue' ? { ...s, reference: [{ title: 'T', href: 'https://example.gov/x' }] } : s)),
    };
    expect(formatExplanation(withRef, 'en')).toContain('      rule: T <https://example.gov/x>');
  });
});

describe('ptax rules show', () => {
  it('a step shows its rule; a convention citation is marked as one', async () => {
    const { showRule } = await import('./show.js');
    const step = showRule(calc.bundle, 'tx.homesteadSchoolValue', undefined, false).split('\n');
    const i = step.indexOf('  rule:');
    expect(step[i + 1]).toBe('    Texas Tax Code §11.13, residence homestead <https://statutes.capitol.texas.gov/Docs/TX/htm/TX.11.htm#11.13>');
    expect(showRule(calc.bundle, 'ny.savings_hint_share', undefined, false)).toContain(
      'ptax, how it works: New York, the savings hint </how-it-works#convention-ny-savings-hint-share> (product convention)',
    );
  });
});
