/**
 * The benchmark's baseline only: the same NY arithmetic written by hand in TypeScript.
 * It holds no figure: every rate, share, cap and band comes from the rule bundle at set-up,
 * so it measures what the interpreter costs, not a second copy of the law.
 */
import type { Bundle } from '../engine/node.js';
import { periodStart, valueAt } from '../engine/node.js';
import { roundTo } from '../engine/node.js';

type Table = Record<string, number>;
const r2 = (x: number) => roundTo(x, 2);

export interface BaselineInput {
  nyc: boolean;
  value: number;
  propertyClass: string | null;
  homestead: boolean;
  over65: boolean;
  seniorIncome: number | null;
  seniorCitizen: boolean;
  disabled: boolean;
  wartimeVeteran: boolean;
  combatVeteran: boolean;
  veteranDisability: number;
  coldWarVeteran: boolean;
  starType: string | null;
  priorAssessed: number | null;
  countyRate: number | null;
  topCoded: boolean;
}

export function baseline(bundle: Bundle, nycYear: number, outsideYear: number) {
  const at = (id: string, program: string, year: number) => {
    const g = bundle.programs[program]!;
    return valueAt(bundle.parameters[id]!, periodStart(g.period, year))!;
  };
  const n = (id: string) => at(id, 'ny.nyc', nycYear);
  const o = (id: string) => at(id, 'ny.outside', outsideYear);
  const rate = n('ny.nyc.tax_rate').value as Table,
    ratio = n('ny.nyc.assessment_ratio').value as Table;
  const school = n('ny.nyc.school_share').value as Table,
    cap = n('ny.nyc.transitional_cap').value as Table;
  const maxValue = n('ny.nyc.max_market_value').value as number,
    senior = n('ny.senior_disabled_share').value as number;
  const starEx = n('ny.star.exemption').value as Table,
    starMax = n('ny.nyc.star_max_savings').value as Table;
  const limit = n('ny.star.enhanced_income_limit').value as number;
  // RPTL §458-a(2): the three shares, the City's maximums and the outside ones.
  const war = n('ny.veteran_wartime_share').value as number,
    combat = n('ny.veteran_combat_share').value as number,
    ratingShare = n('ny.veteran_rating_share').value as number;
  const nycCaps = ['wartime', 'combat', 'rating'].map((k) => n(`ny.nyc.veteran_${k}_cap`).value as number);
  const outCaps = ['wartime', 'combat', 'rating'].map((k) => o(`ny.outside.veteran_${k}_cap`).value as number);
  const nycCold = n('ny.outside.cold_war_share').value as number;
  const abBands = n('ny.nyc.abatement_rate').bands!,
    hint = n('ny.savings_hint_share').value as number;
  const avg = n('ny.state_average_rate').value as number;
  const split = o('ny.default_split').value as Table,
    oSenior = o('ny.senior_disabled_share').value as number;
  const oCold = o('ny.outside.cold_war_share').value as number;
  const oMax = o('ny.outside.max_exemption_share').value as number,
    oStarEx = o('ny.star.exemption').value as Table;
  const oLimit = o('ny.star.enhanced_income_limit').value as number,
    oHint = o('ny.savings_hint_share').value as number;
  // The notes' words come from the rule files too.
  const noteText = (program: string, fact: string) => bundle.programs[program]!.notes.find((n) => JSON.stringify(n.when).includes(`"${fact}"`))!.text.en;
  const fallbackNote = noteText('ny.nyc', 'starFallback');
  const vetNote = (program: string, fact: string, not: string) =>
    bundle.programs[program]!.notes.find((n) => JSON.stringify(n.when).includes(`"${fact}"`) && JSON.stringify(n.when).includes(`"${not}"`))!.text.en;
  const noWartime = { nyc: vetNote('ny.nyc', 'combatVeteran', 'wartimeVeteran'), outside: vetNote('ny.outside', 'combatVeteran', 'wartimeVeteran') };
  const notBoth = { nyc: vetNote('ny.nyc', 'wartimeVeteranApplies', 'coldWarVeteran'), outside: vetNote('ny.outside', 'wartimeVeteranApplies', 'coldWarVeteran') };
  const localCaps = bundle.programs['ny.outside']!.notes.find((n) => {
    const w = JSON.stringify(n.when);
    return w.includes('"wartimeVeteranApplies"') && !w.includes('"coldWarVeteran"');
  })!.text.en;
  const classNote = noteText('ny.nyc', 'exemptionRequested');
  const topCodedNote = noteText('ny.outside', 'topCoded');
  const requested = (i: BaselineInput) =>
    i.homestead ||
    i.over65 ||
    i.seniorCitizen ||
    i.disabled ||
    i.veteranDisability > 0 ||
    i.coldWarVeteran ||
    i.wartimeVeteran ||
    i.combatVeteran ||
    i.starType === 'basic' ||
    i.starType === 'enhanced';
  /** exemptionBreakdown (entries with an amount) and the notes, as the rules give them. */
  const breakdownAndNotes = (
    i: BaselineInput,
    residential: boolean,
    fallback: boolean,
    star: string,
    seniorCitizen: number,
    vetSavings: number,
    vetPercent: number,
    starSavings: number,
  ) => {
    const breakdown: Record<string, unknown> = {};
    if (r2(seniorCitizen) !== 0) breakdown.seniorCitizen = { amount: r2(seniorCitizen) };
    if (r2(vetSavings) !== 0) breakdown.veteran = { amount: r2(vetSavings), percentage: roundTo(vetPercent, 6), disability: i.veteranDisability };
    if (r2(starSavings) !== 0) breakdown.star = { type: star, amount: r2(starSavings) };
    const notes: string[] = [];
    if (fallback) notes.push(fallbackNote);
    const where = i.nyc ? 'nyc' : 'outside';
    if (residential && (i.veteranDisability > 0 || i.combatVeteran) && !i.wartimeVeteran) notes.push(noWartime[where]);
    if (!i.nyc && residential && i.wartimeVeteran) notes.push(localCaps);
    if (residential && i.wartimeVeteran && i.coldWarVeteran) notes.push(notBoth[where]);
    if (!residential && requested(i)) notes.push(classNote);
    if (i.topCoded && !i.nyc) notes.push(topCodedNote); // the city taxes by class: no county-rate note
    return { breakdown, notes };
  };
  /** §458-a(2)(a)-(c) on `base`, each part up to its cap. */
  const veterans = (i: BaselineInput, base: number, caps: number[]) =>
    Math.min(base * war, caps[0]!) +
    (i.combatVeteran ? Math.min(base * combat, caps[1]!) : 0) +
    (i.veteranDisability > 0 ? Math.min((base * ratingShare * i.veteranDisability) / 100, caps[2]!) : 0);
  const band = (bands: typeof abBands, x: number) => {
    for (const b of bands)
      if ((b.below !== undefined && x < b.below) || (b.at_most !== undefined && x <= b.at_most) || (b.below === undefined && b.at_most === undefined))
        return b.value;
    return NaN;
  };

  function nyc(i: BaselineInput) {
    const cls = i.propertyClass;
    if (i.value <= 0) throw new Error('value');
    if (i.value > maxValue) throw new Error('high');
    if (cls === null || !(cls in rate)) throw new Error('class');
    if (i.seniorIncome !== null && i.seniorIncome < 0) throw new Error('income');
    if (i.starType === 'enhanced' && i.seniorIncome === null) throw new Error('income required');
    const residential = cls === 'class1' || cls === 'class2';
    let av = i.value * ratio[cls]!;
    if (i.priorAssessed !== null && i.priorAssessed > 0 && residential) av = Math.min(av, i.priorAssessed * (1 + cap[cls]!));
    const baseTax = (av * rate[cls]!) / 100;
    const schoolPortion = baseTax * school[cls]!;
    const sd = residential && (i.seniorCitizen || i.disabled);
    const seniorSavings = sd ? Math.min(baseTax * senior, baseTax) : 0;
    const afterSenior = baseTax - seniorSavings;
    let star = i.starType ?? (i.over65 ? 'enhanced' : i.homestead ? 'basic' : 'none');
    const fallback = residential && star === 'enhanced' && !(i.seniorIncome !== null && i.seniorIncome <= limit);
    if (!residential) star = 'none';
    else if (fallback) star = 'basic';
    const starRate = rate[cls]! * school[cls]!;
    const starSavings = star === 'none' ? 0 : Math.min((starEx[star]! * starRate) / 100, schoolPortion, starMax[star]!, afterSenior);
    const afterStar = afterSenior - starSavings;
    const wartime = residential && i.wartimeVeteran;
    const capRatio = Math.min(1, ratio[cls]!);
    const vetParts = wartime ? veterans(i, av, nycCaps.map((c) => c * capRatio)) : 0;
    const coldPart = residential && i.coldWarVeteran && !wartime ? av * nycCold : 0;
    const vetValue = Math.min(av, vetParts + coldPart);
    const vetSavings = Math.min((vetValue * rate[cls]!) / 100, afterStar);
    const afterVet = afterStar - vetSavings;
    const abPct = cls === 'class2' && i.homestead ? band(abBands, av) : 0;
    const abatement = (afterVet * abPct) / 100;
    const finalTax = Math.max(0, afterVet - abatement);
    const taxable = Math.max(0, av - (sd ? av * senior : 0) - vetValue);
    const schoolTax = finalTax * school[cls]!;
    const potential = !residential || (i.homestead && i.over65) ? 0 : Math.min((i.value * hint * (i.countyRate ?? avg)) / 100, finalTax);
    const seniorCitizen = i.seniorCitizen ? seniorSavings : 0;
    const percentage = (vetValue / av) * 100;
    const exemptions: Record<string, number> = {};
    const put = (k: string, x: number) => {
      const r = r2(x);
      if (r !== 0) exemptions[k] = r;
    };
    put('seniorCitizen', seniorCitizen);
    put('disabledPerson', seniorSavings - seniorCitizen);
    put('star', starSavings);
    put('veteran', vetSavings);
    put('coopCondoAbatement', abatement);
    const { breakdown, notes } = breakdownAndNotes(i, residential, fallback, star, seniorCitizen, vetSavings, percentage, starSavings);
    return {
      annualTax: r2(finalTax),
      monthlyTax: r2(finalTax / 12),
      effectiveRate: roundTo((finalTax / i.value) * 100, 6),
      baseAssessedValue: r2(av),
      finalAssessedValue: r2(taxable),
      taxableValue: r2(taxable),
      taxableValues: { school: r2(Math.max(0, taxable - (star === 'none' ? 0 : starEx[star]!))), county: 0, city: r2(taxable), special: 0 },
      exemptionSavings: r2(baseTax - finalTax),
      exemptions,
      countyBreakdown: { school: r2(schoolTax), county: 0, city: r2(finalTax - schoolTax), special: 0 },
      exemptionBreakdown: breakdown,
      potentialSavings: r2(potential),
      nyc: {
        marketValue: r2(i.value),
        assessedValue: r2(av),
        baseTax: r2(baseTax),
        schoolTaxPortion: r2(schoolPortion),
        seniorSavings: r2(seniorSavings),
        starSavings: r2(starSavings),
        veteranSavings: r2(vetSavings),
        abatementSavings: r2(abatement),
        finalTax: r2(finalTax),
        effectiveRate: roundTo(finalTax / i.value, 8),
        monthlyPayment: r2(finalTax / 12),
        quarterlyPayment: r2(finalTax / 4),
        breakdown: {
          schoolTax: r2(schoolPortion),
          cityTax: r2(baseTax - schoolPortion),
          exemptions: { senior: r2(seniorSavings), star: r2(starSavings), veteran: r2(vetSavings) },
          abatement: r2(abatement),
        },
      },
      notes,
    };
  }

  function outside(i: BaselineInput) {
    if (i.value <= 0) throw new Error('value');
    if (i.seniorIncome !== null && i.seniorIncome < 0) throw new Error('income');
    const r = i.countyRate!;
    const residential = i.propertyClass === null || i.propertyClass === 'class1' || i.propertyClass === 'class2';
    const sd = residential && (i.seniorCitizen || i.disabled) ? Math.min(oSenior, oMax) : 0;
    const wartime = residential && i.wartimeVeteran;
    // In full value, off the county, city and special levies only (a school district must adopt it).
    const vetValue = wartime ? Math.min(veterans(i, i.value, outCaps), i.value * (oMax - sd)) : 0;
    const cold = residential && i.coldWarVeteran && !wartime ? Math.min(oCold, oMax - sd) : 0;
    const schoolTaxable = Math.max(0, i.value * (1 - sd - cold));
    const taxable = Math.max(0, schoolTaxable - vetValue);
    const schoolRate = r * split.school!;
    const schoolBefore = (schoolTaxable * schoolRate) / 100,
      county = (taxable * r * split.county!) / 100;
    const city = (taxable * r * split.city!) / 100,
      special = (taxable * r * split.special!) / 100;
    let star = residential ? (i.over65 ? 'enhanced' : i.homestead ? 'basic' : 'none') : 'none';
    const fallback = star === 'enhanced' && !(i.seniorIncome !== null && i.seniorIncome <= oLimit);
    if (fallback) star = 'basic';
    const starSavings = Math.min(((star === 'none' ? 0 : oStarEx[star]!) * schoolRate) / 100, schoolBefore);
    const annual = Math.max(0, schoolBefore - starSavings + county + city + special);
    const full = (i.value * r) / 100;
    const seniorCitizen = i.seniorCitizen ? (i.value * sd * r) / 100 : 0;
    const vetSavings = (vetValue * (r - schoolRate)) / 100;
    const exemptions: Record<string, number> = {};
    const put = (k: string, x: number) => {
      const y = r2(x);
      if (y !== 0) exemptions[k] = y;
    };
    put('seniorCitizen', seniorCitizen);
    put('disabledPerson', (i.value * sd * r) / 100 - seniorCitizen);
    put('veteran', vetSavings);
    put('coldWarVeteran', (i.value * cold * r) / 100);
    put('star', starSavings);
    const { breakdown, notes } = breakdownAndNotes(i, residential, fallback, star, seniorCitizen, vetSavings, (vetValue / i.value) * 100, starSavings);
    return {
      annualTax: r2(annual),
      monthlyTax: r2(annual / 12),
      effectiveRate: roundTo((annual / i.value) * 100, 6),
      baseAssessedValue: r2(i.value),
      finalAssessedValue: r2(taxable),
      taxableValue: r2(taxable),
      taxableValues: {
        school: r2(Math.max(0, schoolTaxable - (star === 'none' ? 0 : oStarEx[star]!))),
        county: r2(taxable),
        city: r2(taxable),
        special: r2(taxable),
      },
      exemptionSavings: r2(full - annual),
      exemptions,
      countyBreakdown: { school: r2(schoolBefore - starSavings), county: r2(county), city: r2(city), special: r2(special) },
      exemptionBreakdown: breakdown,
      potentialSavings: r2(!residential || (i.homestead && i.over65) ? 0 : Math.min((i.value * oHint * r) / 100, annual)),
      notes,
    };
  }
  return (i: BaselineInput) => (i.nyc ? nyc(i) : outside(i));
}
