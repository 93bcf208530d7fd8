/**
 * `ptax <state> <calculator>`: the state files' specialised calculators from the command
 * line (figures checked by hand from rules reference §5–§7), and their error conventions.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const MAIN = join(ROOT, 'dist/cli/main.js');
interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
const ptax = (...args: string[]) =>
  new Promise<Run>((done) => {
    execFile('node', [MAIN, ...args], { cwd: ROOT }, (err, stdout, stderr) => {
      done({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr });
    });
  });
const json = async (...args: string[]) => {
  const r = await ptax(...args, '--json');
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};

describe('ptax <state> <calculator>', () => {
  it("tx payment, March 15: last year's bill, 9% penalty and interest: 5,000 × 9% = 450, total 5,450", async () => {
    const o = await json('tx', 'payment', '--tax', '5,000', '--date', '2026-03-15');
    expect(o).toMatchObject({ state: 'TX', program: 'tx.payment', status: 'delinquent', penaltyRate: 9, penalty: 450, attorneyFee: 0, totalDue: 5450 });
  });

  it('tx payment, July 1: 18% and the attorney fee of 20% on tax, penalty and interest: 5,000 × 1.18 × 1.2 = 7,080', async () => {
    const o = await json('tx', 'payment', '--tax', '5000', '--date', '2026-07-01');
    expect(o).toMatchObject({ penaltyRate: 18, penalty: 900, attorneyFeeRate: 20, attorneyFee: 1180, totalDue: 7080 });
  });

  it('tx payment --bill-year 2024, paid 2026-03-15: 14 months, 12% + 14% = 26%: 5,000 → 6,300, attorney fee 20% → 7,560', async () => {
    const o = await json('tx', 'payment', '--tax', '5000', '--date', '2026-03-15', '--bill-year', '2024');
    expect(o).toMatchObject({ status: 'delinquent', billYear: 2024, monthsDelinquent: 14, penaltyRate: 26, penalty: 1300, attorneyFee: 1260, totalDue: 7560 });
  });

  it('tx payment --bill-year: not a year, or after the payment: one line, exit 2', async () => {
    const bad = await ptax('tx', 'payment', '--tax', '5000', '--date', '2026-03-15', '--bill-year', '24');
    expect([bad.code, bad.stderr]).toEqual([2, 'ptax: Year must be a four-digit year, like 2026 (got "24")\n']);
    const after = await ptax('tx', 'payment', '--tax', '5000', '--date', '2026-03-15', '--bill-year', '2027');
    expect([after.code, after.stderr]).toEqual([2, "ptax: The bill's year cannot be after the year of the payment date\n"]);
  });

  it('fl early-payment in December: 3% discount, 4,000 × 0.97 = 3,880', async () => {
    expect(await json('fl', 'early-payment', '--tax', '4000', '--date', '2025-12-10')).toMatchObject({ discountRate: 3, discount: 120, amountDue: 3880 });
  });

  it('tx vote: the 2024 and 2025 rules for the same input; Harris, 400,000, homestead + over-65: school exemption 110,000 → 200,000 saves 90,000 × Houston ISD 0.8783% = 790.47', async () => {
    const o = await json('tx', 'vote', '--county', 'Harris', '--value', '400000', '--homestead', '--over65');
    expect(o).toMatchObject({ calculator: 'vote', years: [2024, 2025], savings: 790.47 });
    expect(o.taxBefore - o.taxAfter).toBeCloseTo(790.47, 2);
  });

  it('the human table labels each figure as rules/results.yaml does and formats it by its unit', async () => {
    const r = await ptax('tx', 'payment', '--tax', '5000', '--date', '2026-03-15');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}Penalty and interest rate +9\.00%$/m);
    expect(r.stdout).toMatch(/^ {2}Total due +\$5,450\.00$/m);
    expect(r.stdout).toMatch(/^ {2}Tax year of the bill +2025$/m);
    const es = await ptax(
      'ca',
      'prop13',
      '--county',
      'Los Angeles',
      '--value',
      '900000',
      '--purchase-price',
      '500000',
      '--purchase-year',
      '2015',
      '--lang',
      'es',
    );
    expect(es.stdout).toMatch(/^ {2}Años de propiedad +10$/m);
  });

  it('the vote lists what each proposition saves (their sum is the whole saving)', async () => {
    // Houston ISD 0.8783%: Prop 13 (homestead 100,000 -> 140,000) 40,000 x 0.8783% = 351.32;
    // Prop 11 (over-65 10,000 -> 60,000) 50,000 x 0.8783% = 439.15; together 790.47.
    const r = await ptax('tx', 'vote', '--county', 'Harris', '--value', '400000', '--homestead', '--over65');
    expect(r.stdout).toMatch(/^ {2}Savings +\$790\.47$/m);
    expect(r.stdout).toMatch(/^ {2}Proposition 13 \(SJR 2\) saves +\$351\.32$/m);
    expect(r.stdout).toMatch(/^ {2}Proposition 11 \(SJR 85\) saves +\$439\.15$/m);
  });

  it("a state's detail block is labelled by rules/results.yaml", async () => {
    const r = await ptax('calc', '--state', 'TX', '--county', 'Harris', '--value', '400000', '--homestead');
    expect(r.stdout).toMatch(/^Texas detail:$/m);
    expect(r.stdout).toMatch(/^ {2}Homestead exemption off the school value +\$140,000\.00$/m);
  });

  it('list names the calculators of a state', async () => {
    const r = await ptax('fl', 'list');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^tax-shock +.*\(needs --county\)$/m);
    expect(r.stdout).toMatch(/^early-payment /m);
    expect((await ptax('ny', 'list')).stdout).toBe('NY has no specialised calculators\n');
  });

  it('the states with a subcommand come from the rules (calculators or a full edition), not a hand list (issue 26)', async () => {
    const bundle = JSON.parse(readFileSync(join(ROOT, 'dist/rules/bundle.json'), 'utf8')) as {
      states: Record<string, { code: string; tier?: string; calculators: unknown[] }>;
    };
    const expected = Object.values(bundle.states)
      .filter((s) => s.calculators.length > 0 || s.tier === 'edition')
      .map((s) => s.code.toLowerCase())
      .sort();
    // Today CA (prop13), FL (tax-shock, early-payment), TX (payment, vote) and NY (an edition without any).
    expect(expected).toEqual(['ca', 'fl', 'ny', 'tx']);
    const help = (await ptax('--help')).stdout;
    for (const code of expected) expect(help).toMatch(new RegExp(`^  ${code} \\[options\\] <calculator>`, 'm'));
    // A county-level state has no subcommand.
    expect(help).not.toMatch(/^ {2}oh \[options\]/m);
  });

  it('errors: one line on stderr, exit 2, the JSON error with --json', async () => {
    const cases: Array<[string[], string]> = [
      [['tx', 'nope'], 'ptax: TX has no calculator "nope": choose one of payment, vote\n'],
      [['tx', 'payment', '--tax', '5000', '--date', '2026-02-30'], 'ptax: Date must be a real date as YYYY-MM-DD, like 2026-03-15 (got "2026-02-30")\n'],
      [['tx', 'payment', '--tax', 'abc'], 'ptax: Tax amount must be a number, like 350000 or 1,250,000 (got "abc")\n'],
      [['fl', 'tax-shock', '--purchase-price', '400000'], 'ptax: A county is required\n'],
    ];
    for (const [args, stderr] of cases) {
      const r = await ptax(...args);
      expect([r.code, r.stderr, r.stdout], args.join(' ')).toEqual([2, stderr, '']);
    }
    const j = await ptax('tx', 'nope', '--json');
    expect(JSON.parse(j.stdout)).toEqual({ error: { code: 'UNKNOWN_CALCULATOR', message: 'TX has no calculator "nope": choose one of payment, vote' } });
  });
});
