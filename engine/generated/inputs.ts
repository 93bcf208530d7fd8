// Generated from rules/inputs.yaml by the rules build (scripts/build-rules.ts): do not edit.
import type { GeneratedInput } from '../core/types.js';

export const INPUTS = [
  {"id":"value","type":"money","unit":"usd","label":"Home value","help":"Market value of the home: what it would sell for today","name":{"en":"Home value","es":"Valor de la vivienda"},"default":350000,"min":0,"states":["NY","TX","CA","FL"],"calculators":["tx.vote","ca.prop13"],"flag":"value","key":"value","column":"value","checkedByRules":false},
  {"id":"year","type":"year","unit":"year","label":"Tax year","help":"Tax year (New York City: fiscal year); default: the latest the rules cover","name":{"en":"Tax year","es":"Año fiscal"},"states":["NY","TX","CA","FL"],"calculators":["ca.prop13","fl.tax-shock"],"flag":"year","key":"year","column":"year","checkedByRules":false},
  {"id":"propertyClass","type":"choice","unit":"none","label":"Property class","help":"New York City tax class of the property","name":{"en":"Property class","es":"Clase de propiedad"},"values":["class1","class2","class3","class4"],"states":["NY"],"calculators":[],"flag":"class","key":"class","column":"class","checkedByRules":true},
  {"id":"homestead","type":"boolean","unit":"none","label":"Homestead (primary residence)","help":"The owner lives in the home as their primary residence","name":{"en":"Homestead (primary residence)","es":"Vivienda principal (homestead)"},"default":false,"states":["NY","TX","CA","FL"],"calculators":["tx.vote"],"flag":"homestead","key":"homestead","column":"homestead","checkedByRules":false},
  {"id":"over65","type":"boolean","unit":"none","label":"Owner 65 or older","help":"An owner is 65 or older","name":{"en":"Owner 65 or older","es":"Propietario de 65 años o más"},"default":false,"states":["NY","TX","FL"],"calculators":["tx.vote"],"flag":"over65","key":"over65","column":"over65","checkedByRules":false},
  {"id":"seniorIncome","type":"money","unit":"usd","label":"Household income","help":"The owners' household income, for Enhanced STAR","name":{"en":"Senior income","es":"Ingreso del adulto mayor"},"min":0,"states":["NY"],"calculators":[],"flag":"senior-income","key":"seniorIncome","column":"seniorIncome","checkedByRules":false},
  {"id":"seniorCitizen","type":"boolean","unit":"none","label":"Senior citizen exemption (SCHE)","help":"Senior citizen homeowners' exemption (SCHE)","name":{"en":"Senior citizen exemption (SCHE)","es":"Exención para personas mayores (SCHE)"},"default":false,"states":["NY"],"calculators":[],"flag":"senior-citizen","key":"seniorCitizen","column":"seniorCitizen","checkedByRules":false},
  {"id":"disabled","type":"boolean","unit":"none","label":"Owner with a disability","help":"Disabled person exemption (New York: DHE)","name":{"en":"Owner with a disability","es":"Propietario con discapacidad"},"default":false,"states":["NY","TX","FL"],"calculators":["tx.vote"],"flag":"disabled","key":"disabled","column":"disabled","checkedByRules":false},
  {"id":"wartimeVeteran","type":"boolean","unit":"none","label":"Wartime veteran","help":"An owner is a veteran who served during a period of war (or received an expeditionary medal): New York's alternative veterans' exemption, RPTL §458-a","name":{"en":"Wartime veteran","es":"Veterano de guerra"},"default":false,"states":["NY"],"calculators":[],"flag":"wartime-veteran","key":"wartimeVeteran","column":"wartimeVeteran","checkedByRules":false},
  {"id":"combatVeteran","type":"boolean","unit":"none","label":"Combat-zone veteran","help":"That veteran served in a combat theatre or combat zone (New York: a further share, RPTL §458-a(2)(b))","name":{"en":"Combat-zone veteran","es":"Veterano de zona de combate"},"default":false,"states":["NY"],"calculators":[],"flag":"combat-veteran","key":"combatVeteran","column":"combatVeteran","checkedByRules":false},
  {"id":"veteranDisability","type":"integer","unit":"percent","label":"Disabled veteran rating","help":"Service-connected disability rating of a veteran owner: 0, 10, 20, …, 100","name":{"en":"Veteran disability level","es":"Nivel de discapacidad del veterano"},"default":0,"min":0,"max":100,"values":[0,10,20,30,40,50,60,70,80,90,100],"states":["NY","TX","FL"],"calculators":["tx.vote"],"flag":"veteran-disability","key":"veteranDisability","column":"veteranDisability","checkedByRules":true},
  {"id":"totallyDisabledVeteran","type":"boolean","unit":"none","label":"Disabled veteran (California's exemption)","help":"A veteran owner, because of military service, has a total (full) disability rating, or is paid at the full rate because they cannot work, or is blind in both eyes, or has lost the use of two or more limbs (R&T Code §205.5)","name":{"en":"Disabled veteran (California's exemption)","es":"Veterano discapacitado (exención de California)"},"default":false,"states":["CA"],"calculators":[],"flag":"totally-disabled-veteran","key":"totallyDisabledVeteran","column":"totallyDisabledVeteran","checkedByRules":false},
  {"id":"veteranIncome","type":"money","unit":"usd","label":"Veteran's household income","help":"Last year's household income, for California's low-income disabled veterans' exemption (R&T Code §205.5); leave empty for the basic amount","name":{"en":"Veteran's household income","es":"Ingreso del hogar del veterano"},"min":0,"refusesNegative":true,"states":["CA"],"calculators":[],"flag":"veteran-income","key":"veteranIncome","column":"veteranIncome","checkedByRules":false},
  {"id":"coldWarVeteran","type":"boolean","unit":"none","label":"Cold War veteran","help":"An owner is a Cold War veteran","name":{"en":"Cold War veteran","es":"Veterano de la Guerra Fría"},"default":false,"states":["NY"],"calculators":[],"flag":"cold-war-veteran","key":"coldWarVeteran","column":"coldWarVeteran","checkedByRules":false},
  {"id":"starType","type":"choice","unit":"none","label":"STAR credit","help":"New York STAR: none, basic or enhanced (overrides what homestead and age imply)","name":{"en":"STAR credit","es":"Crédito STAR"},"values":["none","basic","enhanced"],"states":["NY"],"calculators":[],"flag":"star","key":"star","column":"star","checkedByRules":false},
  {"id":"priorAssessed","type":"money","unit":"usd","label":"Last year's assessed value","help":"The assessed value on last year's bill: the cap on how much it may rise starts from it","name":{"en":"Prior assessed value","es":"Valor tasado del año anterior"},"min":0,"refusesNegative":true,"states":["NY","FL","TX"],"calculators":[],"flag":"prior-assessed","key":"priorAssessed","column":"priorAssessed","checkedByRules":false},
  {"id":"purchasePrice","type":"money","unit":"usd","label":"Purchase price","help":"Price paid for the home (California Prop 13; Florida tax-shock calculator)","name":{"en":"Purchase price","es":"Precio de compra"},"min":0,"refusesNegative":true,"states":["CA"],"calculators":["ca.prop13","fl.tax-shock"],"flag":"purchase-price","key":"purchasePrice","column":"purchasePrice","checkedByRules":false},
  {"id":"purchaseYear","type":"year","unit":"year","label":"Year of purchase","help":"Year the home was bought (California Prop 13)","name":{"en":"Purchase year","es":"Año de compra"},"states":["CA"],"calculators":["ca.prop13"],"flag":"purchase-year","key":"purchaseYear","column":"purchaseYear","checkedByRules":false},
  {"id":"melloRoos","type":"money","unit":"usd","label":"Mello-Roos special tax","help":"Annual Mello-Roos special tax on the bill (California)","name":{"en":"Mello-Roos amount","es":"Monto de Mello-Roos"},"min":0,"refusesNegative":true,"states":["CA"],"calculators":[],"flag":"mello-roos","key":"melloRoos","column":"melloRoos","checkedByRules":false},
  {"id":"taxAmount","type":"money","unit":"usd","label":"Tax amount","help":"Total of the tax bill to pay","name":{"en":"Tax amount","es":"Monto del impuesto"},"min":0,"refusesNegative":true,"states":[],"calculators":["tx.payment","fl.early-payment"],"flag":"tax","key":"tax","checkedByRules":false},
  {"id":"paymentDate","type":"date","unit":"none","label":"Payment date","help":"Date of the payment, YYYY-MM-DD (default: today)","name":{"en":"Payment date","es":"Fecha del pago"},"facts":{"year":"paymentYear","month":"paymentMonth","day":"paymentDay"},"states":[],"calculators":["tx.payment","fl.early-payment"],"flag":"date","key":"date","checkedByRules":false},
  {"id":"sellerTax","type":"money","unit":"usd","label":"Seller's annual tax","help":"What the seller paid in property tax last year, to compare with","name":{"en":"Seller's tax","es":"Impuesto del vendedor"},"min":0,"refusesNegative":true,"states":[],"calculators":["fl.tax-shock"],"flag":"seller-tax","key":"sellerTax","checkedByRules":false},
  {"id":"billYear","type":"year","unit":"year","label":"Tax year of the bill","help":"The bill's tax year (default: read from the payment date)","name":{"en":"Bill year","es":"Año de la factura"},"states":[],"calculators":["tx.payment"],"flag":"bill-year","key":"billYear","checkedByRules":false},
  {"id":"countyRate","type":"number","unit":"percent","label":"County rate (what-if)","help":"What-if: this county rate, in percent (e.g. 1.25), instead of the county's own (its parts by levy keep their proportions)","name":{"en":"County rate","es":"Tasa del condado"},"min":0,"max":100,"states":["NY","TX","CA","FL"],"calculators":[],"flag":"county-rate","key":"countyRate","column":"countyRate","checkedByRules":false},
] as const satisfies readonly GeneratedInput[];

/** The input facts in slot order: each input's id (a date input: its three facts), the county facts (the what-if rate) left out. */
export const INPUT_FACTS = ["value","year","propertyClass","homestead","over65","seniorIncome","seniorCitizen","disabled","wartimeVeteran","combatVeteran","veteranDisability","totallyDisabledVeteran","veteranIncome","coldWarVeteran","starType","priorAssessed","purchasePrice","purchaseYear","melloRoos","taxAmount","paymentYear","paymentMonth","paymentDay","sellerTax","billYear"] as const;

/** CalcInput's inputs besides the value and the year: each fact by its type. */
export interface DeclaredCalcInput {
  propertyClass?: string | null;
  homestead?: boolean;
  over65?: boolean;
  seniorIncome?: number | null;
  seniorCitizen?: boolean;
  disabled?: boolean;
  wartimeVeteran?: boolean;
  combatVeteran?: boolean;
  veteranDisability?: number | null;
  totallyDisabledVeteran?: boolean;
  veteranIncome?: number | null;
  coldWarVeteran?: boolean;
  starType?: string | null;
  priorAssessed?: number | null;
  purchasePrice?: number | null;
  purchaseYear?: number | null;
  melloRoos?: number | null;
  taxAmount?: number | null;
  paymentYear?: number | null;
  paymentMonth?: number | null;
  paymentDay?: number | null;
  sellerTax?: number | null;
  billYear?: number | null;
  countyRate?: number | null;
}

/** FlagInput's flags in camelCase (a date: its facts, split by the caller), the year left out. */
export interface DeclaredFlagInput {
  value?: number | null;
  class?: string | null;
  homestead?: boolean;
  over65?: boolean;
  seniorIncome?: number | null;
  seniorCitizen?: boolean;
  disabled?: boolean;
  wartimeVeteran?: boolean;
  combatVeteran?: boolean;
  veteranDisability?: number | null;
  totallyDisabledVeteran?: boolean;
  veteranIncome?: number | null;
  coldWarVeteran?: boolean;
  star?: string | null;
  priorAssessed?: number | null;
  purchasePrice?: number | null;
  purchaseYear?: number | null;
  melloRoos?: number | null;
  tax?: number | null;
  paymentYear?: number | null;
  paymentMonth?: number | null;
  paymentDay?: number | null;
  sellerTax?: number | null;
  billYear?: number | null;
  countyRate?: number | null;
}
