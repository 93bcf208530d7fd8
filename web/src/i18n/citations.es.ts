/**
 * Spanish titles of the sources the rule files cite (issue 24), by their English title: a Spanish
 * page shows these; a title missing here is shown as it is, marked lang="en"
 * (lib/citations.ts). web/src/lib/citations.test.ts fails on a title of the rules without one.
 */
export const CITATIONS_ES: Array<[string, string]> = [
  [
    'US Census Bureau, Population Estimates Program, Vintage 2023: annual estimates of the resident population for counties, July 1, 2023 (co-est2023-alldata, POPESTIMATE2023)',
    'Oficina del Censo de EE. UU., Programa de Estimaciones de Población, Vintage 2023: estimaciones anuales de la población residente de los condados al 1 de julio de 2023 (co-est2023-alldata, POPESTIMATE2023)',
  ],
  [
    'US Census Bureau, Population Estimates Program, Vintage 2023: county population on July 1, 2023',
    'Oficina del Censo de EE. UU., Programa de Estimaciones de Población, Vintage 2023: población de los condados al 1 de julio de 2023',
  ],
  ['ACCESS NYC, School Tax Relief (STAR) program: estimated savings', 'ACCESS NYC, programa de alivio del impuesto escolar (STAR): ahorro estimado'],
  [
    'Amendment 5 (2024): second homestead tier indexed to CPI; 25,722 for 2025 (Okeechobee County Property Appraiser)',
    'Enmienda 5 (2024): segundo tramo de vivienda principal indexado al IPC; 25,722 para 2025 (Tasador de Propiedades del Condado de Okeechobee)',
  ],
  ['California Constitution art. XIII A (Proposition 13)', 'Constitución de California, art. XIII A (Proposición 13)'],
  [
    'California Constitution art. XIII A §1(a): ad valorem tax limited to 1% of full cash value plus voter-approved debt',
    'Constitución de California, art. XIII A §1(a): impuesto ad valorem limitado al 1% del valor en efectivo más la deuda aprobada por los votantes',
  ],
  [
    'California Constitution art. XIII A §2(a): full cash value is the 1975-76 appraised value, or the value at a later purchase or new construction',
    'Constitución de California, art. XIII A §2(a): el valor en efectivo es el valor tasado de 1975-76, o el valor en una compra o construcción posterior',
  ],
  [
    'California Constitution art. XIII A §2(b): base-year value adjusted for inflation by at most 2% a year',
    'Constitución de California, art. XIII A §2(b): el valor del año base se ajusta por inflación como máximo un 2% al año',
  ],
  [
    "California Constitution art. XIII §3(k) and Revenue and Taxation Code §218: homeowners' exemption of $7,000 of assessed value",
    'Constitución de California, art. XIII §3(k), y Código de Ingresos e Impuestos §218: exención para propietarios de $7,000 del valor tasado',
  ],
  [
    "California Revenue and Taxation Code §205.5, disabled veterans' exemption",
    'Código de Ingresos e Impuestos de California §205.5, exención para veteranos discapacitados',
  ],
  ["California Revenue and Taxation Code §218, homeowners' exemption", 'Código de Ingresos e Impuestos de California §218, exención para propietarios'],
  ['California Revenue and Taxation Code §2617, installments', 'Código de Ingresos e Impuestos de California §2617, plazos'],
  [
    "California State Board of Equalization, Disabled Veterans' Exemption: basic and low-income levels, amounts compounded annually",
    'Junta Estatal de Ecualización de California, exención para veteranos discapacitados: niveles básico y de bajos ingresos, montos actualizados cada año',
  ],
  [
    'Fla. Const. art. VII §6(a) (additional exemption up to $25,000, non-school levies); Miami-Dade Property Appraiser',
    'Constitución de Florida, art. VII §6(a) (exención adicional de hasta $25,000, gravámenes no escolares); Tasador de Propiedades de Miami-Dade',
  ],
  [
    'Fla. Const. art. VII §6(a); Miami-Dade Property Appraiser, Additional homestead exemption (assessed value between $50,000 and $75,000)',
    'Constitución de Florida, art. VII §6(a); Tasador de Propiedades de Miami-Dade, exención adicional de vivienda principal (valor tasado entre $50,000 y $75,000)',
  ],
  [
    'Fla. Const. art. VII §6(a); Miami-Dade Property Appraiser, Homestead exemption',
    'Constitución de Florida, art. VII §6(a); Tasador de Propiedades de Miami-Dade, exención de vivienda principal',
  ],
  [
    'Fla. Stat. §196.075, additional homestead exemption for persons 65 and older (Broward County Property Appraiser instructions)',
    'Estatutos de Florida §196.075, exención adicional de vivienda principal para personas de 65 años o más (instrucciones del Tasador de Propiedades del Condado de Broward)',
  ],
  [
    'Fla. Stat. §196.081, exemption for totally and permanently disabled veterans',
    'Estatutos de Florida §196.081, exención para veteranos con discapacidad total y permanente',
  ],
  [
    'Fla. Stat. §196.202, property of widows, widowers, blind persons and persons totally and permanently disabled ($500)',
    'Estatutos de Florida §196.202, propiedad de viudas, viudos, personas ciegas y personas con discapacidad total y permanente ($500)',
  ],
  ['Fla. Stat. §196.24 (disability of 10 percent or more)', 'Estatutos de Florida §196.24 (discapacidad del 10 por ciento o más)'],
  [
    'Fla. Stat. §196.24, exemption for disabled ex-servicemembers ($5,000, disability of 10% or more)',
    'Estatutos de Florida §196.24, exención para exmiembros del servicio con discapacidad ($5,000, discapacidad del 10% o más)',
  ],
  [
    'Fla. Stat. §197.162 (4% discount in November, the month the tax notices are mailed); seed 001 §4: Florida bills in November, due March 31',
    'Estatutos de Florida §197.162 (descuento del 4% en noviembre, el mes en que se envían los avisos); especificación 001 §4: Florida factura en noviembre, con vencimiento el 31 de marzo',
  ],
  [
    'Fla. Stat. §197.162, discounts for early payment (4% November, 3% December, 2% January, 1% February)',
    'Estatutos de Florida §197.162, descuentos por pago anticipado (4% noviembre, 3% diciembre, 2% enero, 1% febrero)',
  ],
  [
    'Fla. Stat. §197.333, when taxes are due and delinquent (delinquent April 1)',
    'Estatutos de Florida §197.333, cuándo vencen los impuestos y cuándo están en mora (en mora el 1 de abril)',
  ],
  ['Florida Statutes §196.081, totally and permanently disabled veterans', 'Estatutos de Florida §196.081, veteranos con discapacidad total y permanente'],
  [
    'Florida Statutes §196.202, blind and totally and permanently disabled persons',
    'Estatutos de Florida §196.202, personas ciegas y con discapacidad total y permanente',
  ],
  ['Florida Statutes §196.24, disabled ex-servicemembers', 'Estatutos de Florida §196.24, exmiembros del servicio con discapacidad'],
  [
    'Leon County Property Appraiser, FAQ (homestead exemption up to $50,722 for 2025)',
    'Tasador de Propiedades del Condado de Leon, preguntas frecuentes (exención de vivienda principal de hasta $50,722 para 2025)',
  ],
  ['Miami-Dade Property Appraiser, Additional homestead exemption', 'Tasador de Propiedades de Miami-Dade, exención adicional de vivienda principal'],
  ['Miami-Dade Property Appraiser, Homestead exemption (second tier)', 'Tasador de Propiedades de Miami-Dade, exención de vivienda principal (segundo tramo)'],
  ['Miami-Dade Property Appraiser, Save Our Homes', 'Tasador de Propiedades de Miami-Dade, Save Our Homes'],
  [
    'Miami-Dade Property Appraiser, Save Our Homes (lesser of 3% or CPI; 2024: 3.0%)',
    'Tasador de Propiedades de Miami-Dade, Save Our Homes (el menor entre el 3% y el IPC; 2024: 3.0%)',
  ],
  [
    'Miami-Dade Property Appraiser, Save Our Homes (lesser of 3% or CPI; 2025: 2.9%)',
    'Tasador de Propiedades de Miami-Dade, Save Our Homes (el menor entre el 3% y el IPC; 2025: 2.9%)',
  ],
  ['Miami-Dade Tax Collector, Discounts for early payment', 'Recaudador de Impuestos de Miami-Dade, descuentos por pago anticipado'],
  [
    'Miami-Dade Tax Collector, Discounts for early payment (delinquent April 1)',
    'Recaudador de Impuestos de Miami-Dade, descuentos por pago anticipado (en mora el 1 de abril)',
  ],
  ['NYC Department of Finance, Co-op and condo abatement', 'Departamento de Finanzas de NYC, reducción para cooperativas y condominios'],
  [
    'NYC Department of Finance, Co-op and condo abatement (schedule since 2014/15)',
    'Departamento de Finanzas de NYC, reducción para cooperativas y condominios (escala desde 2014/15)',
  ],
  [
    'NYC Department of Finance, Definitions of property assessment terms: assessed value = market value × level of assessment (class 1, and classes 2a, 2b, 2c)',
    'Departamento de Finanzas de NYC, definiciones de términos de tasación: valor tasado = valor de mercado × nivel de tasación (clase 1 y clases 2a, 2b, 2c)',
  ],
  [
    'NYC Department of Finance, Determining your assessed value: the assessment ratio of each tax class (class 1; classes 2, 3 and 4)',
    'Departamento de Finanzas de NYC, cómo se determina su valor tasado: la proporción de tasación de cada clase (clase 1; clases 2, 3 y 4)',
  ],
  [
    'NYC Department of Finance, Property tax rates (tax year 2025); set by the City Council 2024-10-23',
    'Departamento de Finanzas de NYC, tasas del impuesto a la propiedad (año fiscal 2025); fijadas por el Concejo Municipal el 2024-10-23',
  ],
  [
    'NYC Department of Finance, Property tax rates (the class rates of each tax year; FY2026 rates set by the City Council 2025-10-29)',
    'Departamento de Finanzas de NYC, tasas del impuesto a la propiedad (las tasas por clase de cada año fiscal; las del año fiscal 2026, fijadas por el Concejo Municipal el 2025-10-29)',
  ],
  [
    "NYC Department of Finance, Veterans Exemption: exemption rates for eligible veterans (the share of assessed value for service during a period of conflict; the City's maximums are set by NYC Administrative Code §11-245.6 under RPTL §458-a(2)(d)(ii))",
    'Departamento de Finanzas de NYC, exención para veteranos: porcentajes de exención para veteranos elegibles (la parte del valor tasado por servicio durante un conflicto; los máximos de la Ciudad los fija el Código Administrativo de NYC §11-245.6 según la RPTL §458-a(2)(d)(ii))',
  ],
  [
    'NYS Department of Taxation and Finance, Opinions of Counsel SBRPS No. 14 (volume 12), Cold War veterans exemption, RPTL §458-b: the two basic levels a municipality may adopt',
    'Departamento de Impuestos y Finanzas del Estado de Nueva York, opiniones del asesor jurídico SBRPS n.º 14 (volumen 12), exención para veteranos de la Guerra Fría, RPTL §458-b: los dos niveles básicos que puede adoptar un municipio',
  ],
  ["NYS Tax, Alternative veterans' exemption (RPTL §458-a)", 'Impuestos del Estado de Nueva York, exención alternativa para veteranos (RPTL §458-a)'],
  ['NYS Tax, Enhanced STAR income limits', 'Impuestos del Estado de Nueva York, límites de ingresos de STAR mejorado'],
  ['NYS Tax, Exemption for senior citizens (RPTL §467)', 'Impuestos del Estado de Nueva York, exención para personas mayores (RPTL §467)'],
  ['NYS Tax, How the enhanced STAR savings are calculated', 'Impuestos del Estado de Nueva York, cómo se calcula el ahorro de STAR mejorado'],
  ['NYS Tax, STAR exemption types', 'Impuestos del Estado de Nueva York, tipos de exención STAR'],
  ['NYS Tax, STAR exemption types (RPTL §425)', 'Impuestos del Estado de Nueva York, tipos de exención STAR (RPTL §425)'],
  [
    'RPTL §1805, limitation on increases of assessed value of individual parcels: class one (subd. 1) and class two parcels of fewer than eleven units (subd. 2), NY Senate Open Legislation',
    'RPTL §1805, límite al aumento del valor tasado de cada parcela: clase uno (subd. 1) y parcelas de clase dos con menos de once unidades (subd. 2), Senado de Nueva York, Open Legislation',
  ],
  [
    'RPTL §581, assessment of residential cooperative, condominium and rental property: assessed at a sum not exceeding the assessment of the parcel were it not owned on a cooperative or condominium basis, NY Senate Open Legislation',
    'RPTL §581, tasación de cooperativas, condominios y propiedades de alquiler residenciales: se tasan por una suma no mayor que la tasación de la parcela si no fuera propiedad en régimen de cooperativa o de condominio, Senado de Nueva York, Open Legislation',
  ],
  [
    'RPTL §425(2)(b), STAR base figures: the basic figure, and the enhanced figure raised each school year by the CPI-W (NY Senate Open Legislation)',
    'RPTL §425(2)(b), cifras base de STAR: la cifra básica y la mejorada, que sube cada año escolar con el CPI-W (Senado de Nueva York, Open Legislation)',
  ],
  [
    "RPTL §458-a alternative veterans' exemption; seed 000 §9 form scale of 1.5% per 10% disability",
    'RPTL §458-a, exención alternativa para veteranos; escala del formulario de la especificación 000 §9: 1.5% por cada 10% de discapacidad',
  ],
  ['RPTL §467 (SCHE) and §459-c (DHE), 50% maximum', 'RPTL §467 (SCHE) y §459-c (DHE), máximo del 50%'],
  [
    "Revenue and Taxation Code §205.5: disabled veterans' exemption, amounts compounded annually",
    'Código de Ingresos e Impuestos §205.5: exención para veteranos discapacitados, montos actualizados cada año',
  ],
  [
    'Revenue and Taxation Code §2617 (first installment delinquent December 10) and §2618 (second installment delinquent April 10)',
    'Código de Ingresos e Impuestos §2617 (primer plazo en mora el 10 de diciembre) y §2618 (segundo plazo en mora el 10 de abril)',
  ],
  [
    'Revenue and Taxation Code §2618: 10% delinquent penalty on an unpaid installment (and §2617)',
    'Código de Ingresos e Impuestos §2618: recargo del 10% sobre un plazo impago (y §2617)',
  ],
  [
    'Riverside County Assessor-County Clerk-Recorder, Proposition 13: the base rate',
    'Tasador y Registrador del Condado de Riverside, Proposición 13: la tasa base',
  ],
  ['Sarasota County Property Appraiser, Save Our Homes', 'Tasador de Propiedades del Condado de Sarasota, Save Our Homes'],
  [
    "Texas Comptroller, Disabled Veterans FAQ: 100% disabled veterans' residence homestead totally exempt (Tax Code §11.131)",
    'Contralor de Texas, preguntas frecuentes sobre veteranos discapacitados: la vivienda principal de un veterano con 100% de discapacidad está totalmente exenta (Código Tributario §11.131)',
  ],
  [
    'Texas Comptroller, Disabled Veterans FAQ: 10–29% $5,000; 30–49% $7,500; 50–69% $10,000; 70–100% $12,000 (Tax Code §11.22)',
    'Contralor de Texas, preguntas frecuentes sobre veteranos discapacitados: 10–29% $5,000; 30–49% $7,500; 50–69% $10,000; 70–100% $12,000 (Código Tributario §11.22)',
  ],
  ['Texas Comptroller, Disabled veterans: Tax Code §11.22 and §11.131', 'Contralor de Texas, veteranos discapacitados: Código Tributario §11.22 y §11.131'],
  [
    'Texas Comptroller, Penalty and interest on delinquent bills (totals Feb 7%, Mar 9%, Apr 11%, May 13%, Jun 15%, Jul 18%)',
    'Contralor de Texas, recargos e intereses sobre facturas en mora (totales: feb. 7%, mar. 9%, abr. 11%, may. 13%, jun. 15%, jul. 18%)',
  ],
  [
    'Texas Legislature, SJR 2 (89th Leg., R.S.), text as introduced: Tex. Const. art. VIII §1-b(c), school homestead exemption raised (Proposition 13 of Nov 4, 2025)',
    'Legislatura de Texas, SJR 2 (89.ª Leg., sesión ordinaria), texto presentado: Constitución de Texas, art. VIII §1-b(c), aumento de la exención escolar de vivienda principal (Proposición 13 del 4 de noviembre de 2025)',
  ],
  [
    'Texas Legislature, SJR 2 (89th Leg., R.S.): Tex. Const. art. VIII §1-b(c), school homestead exemption',
    'Legislatura de Texas, SJR 2 (89.ª Leg., sesión ordinaria): Constitución de Texas, art. VIII §1-b(c), exención escolar de vivienda principal',
  ],
  [
    'Texas SB 23 (89th Legislature), enrolled text: Tax Code §11.13(c) $10,000 → $60,000 from the 2025 tax year, in effect with SJR 85 (Proposition 11, approved by the voters 2025-11-04)',
    'Texas SB 23 (89.ª Legislatura), texto aprobado: Código Tributario §11.13(c), de $10,000 a $60,000 desde el año fiscal 2025, vigente con la SJR 85 (Proposición 11, aprobada por los votantes el 2025-11-04)',
  ],
  [
    'Texas SB 23 (89th Legislature), enrolled text: the additional school exemption for age 65 or older or disabled (Tax Code §11.13(c)), in effect with SJR 85 (Proposition 11)',
    'Texas SB 23 (89.ª Legislatura), texto aprobado: la exención escolar adicional para personas de 65 años o más o con discapacidad (Código Tributario §11.13(c)), vigente con la SJR 85 (Proposición 11)',
  ],
  [
    'Texas Tax Code §11.13(a): $3,000 residence homestead exemption from county taxes',
    'Código Tributario de Texas §11.13(a): exención de vivienda principal de $3,000 en los impuestos del condado',
  ],
  [
    'Texas Tax Code §11.13(b), residence homestead: $100,000 school exemption (SB 2, 88th Leg., 2nd C.S., 2023)',
    'Código Tributario de Texas §11.13(b), vivienda principal: exención escolar de $100,000 (SB 2, 88.ª Leg., 2.ª sesión extraordinaria, 2023)',
  ],
  [
    'Texas Tax Code §11.13(c): additional $10,000 school exemption for age 65 or older or disabled',
    'Código Tributario de Texas §11.13(c): exención escolar adicional de $10,000 para personas de 65 años o más o con discapacidad',
  ],
  ['Texas Tax Code §11.13, residence homestead', 'Código Tributario de Texas §11.13, vivienda principal'],
  [
    'Texas Tax Code §31.02(a): taxes are delinquent if not paid before February 1 of the year after the year imposed',
    'Código Tributario de Texas §31.02(a): los impuestos están en mora si no se pagan antes del 1 de febrero del año siguiente',
  ],
  ['Texas Tax Code §31.02, when taxes are delinquent', 'Código Tributario de Texas §31.02, cuándo los impuestos están en mora'],
  [
    'Texas Tax Code §31.03: split payment, first half before December 1, second half before July 1',
    'Código Tributario de Texas §31.03: pago dividido, la primera mitad antes del 1 de diciembre y la segunda antes del 1 de julio',
  ],
  [
    'Texas Tax Code §31.05(b): discounts of 3% in October, 2% in November, 1% in December, if adopted by the taxing unit',
    'Código Tributario de Texas §31.05(b): descuentos del 3% en octubre, 2% en noviembre y 1% en diciembre, si la entidad tributaria los adopta',
  ],
  [
    'Texas Tax Code §31.05(b): optional discounts for payment in October, November and December',
    'Código Tributario de Texas §31.05(b): descuentos opcionales por pago en octubre, noviembre y diciembre',
  ],
  ['Texas Tax Code §31.05, discounts', 'Código Tributario de Texas §31.05, descuentos'],
  [
    'Texas Tax Code §33.01(a): penalty 6% the first month of delinquency, +1% each additional month, 12% if unpaid on July 1',
    'Código Tributario de Texas §33.01(a): recargo del 6% el primer mes de mora, +1% cada mes adicional, 12% si sigue impago el 1 de julio',
  ],
  [
    'Texas Tax Code §33.01(c): interest of 1% for each month or portion of a month the tax remains unpaid',
    'Código Tributario de Texas §33.01(c): interés del 1% por cada mes o fracción en que el impuesto siga impago',
  ],
  ['Texas Tax Code §33.01, penalties and interest', 'Código Tributario de Texas §33.01, recargos e intereses'],
  [
    'Texas Tax Code §33.07: additional penalty not exceeding 20% of tax, penalty and interest delinquent on July 1',
    'Código Tributario de Texas §33.07: recargo adicional de hasta el 20% del impuesto, recargos e intereses en mora el 1 de julio',
  ],
  [
    "Tulare County Assessor, Disabled Veterans' Property Exemption: 2024 basic exemption $169,769 (R&T Code §205.5)",
    'Tasador del Condado de Tulare, exención de propiedad para veteranos discapacitados: exención básica de 2024 de $169,769 (Código de Ingresos e Impuestos §205.5)',
  ],
  [
    'Tulare County Assessor: in 2024 a 100% disabled veteran receives the basic (or low-income) exemption amount',
    'Tasador del Condado de Tulare: en 2024 un veterano con 100% de discapacidad recibe el monto de la exención básica (o de bajos ingresos)',
  ],
  [
    "US Census Bureau, ACS 2019–2023 five-year table B25077, median home value of California's counties (with table B25103 it gives the county rates; their median is 0.705%)",
    'Oficina del Censo de EE. UU., ACS 2019–2023 a cinco años, tabla B25077, valor mediano de la vivienda en los condados de California (con la tabla B25103 da las tasas de los condados; su mediana es 0.705%)',
  ],
  [
    'US Census Bureau, ACS 2019–2023 five-year table B25077, median value of owner-occupied homes, by county',
    'Oficina del Censo de EE. UU., ACS 2019–2023 a cinco años, tabla B25077, valor mediano de las viviendas ocupadas por sus propietarios, por condado',
  ],
  [
    'US Census Bureau, ACS 2019–2023 five-year table B25103, median real estate taxes paid, by county (the rates as compiled by the Tax Foundation, Property Taxes by State and County 2023)',
    'Oficina del Censo de EE. UU., ACS 2019–2023 a cinco años, tabla B25103, mediana de impuestos inmobiliarios pagados, por condado (tasas compiladas por la Tax Foundation, Property Taxes by State and County 2023)',
  ],
  [
    'California State Board of Equalization, Property Taxes Law Guide, R&T Code §218: seven thousand dollars ($7,000) of the full value of the dwelling',
    'Junta Estatal de Ecualización de California, guía de leyes del impuesto a la propiedad, Código de Ingresos e Impuestos §218: siete mil dólares ($7,000) del valor total de la vivienda',
  ],
  [
    "Tulare County Assessor, Claim for Disabled Veterans' Property Tax Exemption: in 2024 the basic exemption amount is $169,769 (R&T Code §205.5)",
    'Tasador del Condado de Tulare, solicitud de exención para veteranos discapacitados: en 2024 la exención básica es de $169,769 (Código de Ingresos e Impuestos §205.5)',
  ],
  [
    "California State Board of Equalization, Disabled Veterans' Exemption: basic and low-income levels, amounts compounded annually (2025 amount not confirmed from the Board's letter to assessors)",
    'Junta Estatal de Ecualización de California, exención para veteranos discapacitados: niveles básico y de bajos ingresos, montos actualizados cada año (monto de 2025 no confirmado en la carta de la Junta a los tasadores)',
  ],
  [
    "Tulare County Assessor, Claim for Disabled Veterans' Property Tax Exemption: in 2024 the low-income exemption amount is $254,656 (R&T Code §205.5)",
    'Tasador del Condado de Tulare, solicitud de exención para veteranos discapacitados: en 2024 la exención de bajos ingresos es de $254,656 (Código de Ingresos e Impuestos §205.5)',
  ],
  [
    "California State Board of Equalization, Disabled Veterans' Exemption: low-income level compounded annually (2025 amount not confirmed from the Board's letter to assessors)",
    'Junta Estatal de Ecualización de California, exención para veteranos discapacitados: nivel de bajos ingresos actualizado cada año (monto de 2025 no confirmado en la carta de la Junta a los tasadores)',
  ],
  ['Revenue and Taxation Code §205.5(a) and (h)', 'Código de Ingresos e Impuestos §205.5(a) y (h)'],
  [
    "Tulare County Assessor, Claim for Disabled Veterans' Property Tax Exemption: in 2024 the annual household income limit is $76,235",
    'Tasador del Condado de Tulare, solicitud de exención para veteranos discapacitados: en 2024 el límite de ingresos anuales del hogar es de $76,235',
  ],
  [
    "California State Board of Equalization, Disabled Veterans' Exemption: annual household income limit compounded annually (2025 limit not confirmed from the Board's letter to assessors)",
    'Junta Estatal de Ecualización de California, exención para veteranos discapacitados: límite de ingresos anuales del hogar actualizado cada año (límite de 2025 no confirmado en la carta de la Junta a los tasadores)',
  ],
  ['Revenue and Taxation Code §205.5(g)', 'Código de Ingresos e Impuestos §205.5(g)'],
  [
    "California State Board of Equalization, Disabled Veterans' Exemption: veterans rated 100% disabled or compensated at the 100% rate due to unemployability",
    'Junta Estatal de Ecualización de California, exención para veteranos discapacitados: veteranos con 100% de discapacidad o compensados al 100% por incapacidad para trabajar',
  ],
  [
    'Revenue and Taxation Code §205.5(a): blind in both eyes, lost the use of two or more limbs, or totally disabled as a result of injury or disease incurred in military service',
    'Código de Ingresos e Impuestos §205.5(a): ciego de ambos ojos, con pérdida del uso de dos o más extremidades, o totalmente discapacitado por una lesión o enfermedad contraída en el servicio militar',
  ],
  [
    'Fla. Stat. §196.202, property of widows, widowers, blind persons and persons totally and permanently disabled ($500 until chapter 2022-97)',
    'Estatutos de Florida §196.202, propiedad de viudas, viudos, personas ciegas y personas con discapacidad total y permanente ($500 hasta el capítulo 2022-97)',
  ],
  [
    'Florida Senate, CS for SB 1366 (2001), enrolled: §196.202, property to the value of $500 of every widow, widower, blind person, or totally and permanently disabled person',
    'Senado de Florida, CS for SB 1366 (2001), texto aprobado: §196.202, propiedad por un valor de $500 de toda viuda, viudo, persona ciega o persona con discapacidad total y permanente',
  ],
  [
    'Fla. Stat. §196.202(1) as amended by s. 12, ch. 2022-97: property to the value of $5,000 of every widow, widower, blind person, or totally and permanently disabled person',
    'Estatutos de Florida §196.202(1), modificado por la s. 12 del cap. 2022-97: propiedad por un valor de $5,000 de toda viuda, viudo, persona ciega o persona con discapacidad total y permanente',
  ],
  [
    'Martin County Property Appraiser, Disability exemptions: in 2022 §196.202 was changed to increase the exemption from $500 to $5,000, effective January 2023',
    'Tasador de Propiedades del Condado de Martin, exenciones por discapacidad: en 2022 se modificó el §196.202 para subir la exención de $500 a $5,000, vigente desde enero de 2023',
  ],
  [
    'Sarasota County Property Appraiser, Save Our Homes: cap history, 2024 CPI change 3.4%, SOH cap 3.0%',
    'Tasador de Propiedades del Condado de Sarasota, Save Our Homes: historial del tope, variación del IPC de 2024 del 3.4%, tope de Save Our Homes del 3.0%',
  ],
  [
    "NYC Department of Finance, Veterans Exemption (the City's maximums are set by NYC Administrative Code §11-245.6 under RPTL §458-a(2)(d)(ii))",
    'Departamento de Finanzas de NYC, exención para veteranos (los máximos de la Ciudad los fija el Código Administrativo de NYC §11-245.6 según la RPTL §458-a(2)(d)(ii))',
  ],
  [
    "RPTL §458-a(2)(a) (the statute's maximum, or that amount times the latest state equalization rate, whichever is less; a county, city, town, village or school district may adopt a lower or a higher maximum under §458-a(2)(d)); NYS Tax, Alternative veterans' exemption",
    'RPTL §458-a(2)(a) (el máximo de la ley, o ese monto por la última tasa estatal de ecualización, el menor de los dos; un condado, ciudad, pueblo, villa o distrito escolar puede adoptar un máximo menor o mayor según el §458-a(2)(d)); Impuestos del Estado de Nueva York, exención alternativa para veteranos',
  ],
  [
    "RPTL §458-a(2)(b) (the statute's maximum, or that amount times the latest state equalization rate, whichever is less; a county, city, town, village or school district may adopt a lower or a higher maximum under §458-a(2)(d)); NYS Tax, Alternative veterans' exemption",
    'RPTL §458-a(2)(b) (el máximo de la ley, o ese monto por la última tasa estatal de ecualización, el menor de los dos; un condado, ciudad, pueblo, villa o distrito escolar puede adoptar un máximo menor o mayor según el §458-a(2)(d)); Impuestos del Estado de Nueva York, exención alternativa para veteranos',
  ],
  [
    "RPTL §458-a(2)(c) (the statute's maximum, or that amount times the latest state equalization rate, whichever is less; a county, city, town, village or school district may adopt a lower or a higher maximum under §458-a(2)(d)); NYS Tax, Alternative veterans' exemption",
    'RPTL §458-a(2)(c) (el máximo de la ley, o ese monto por la última tasa estatal de ecualización, el menor de los dos; un condado, ciudad, pueblo, villa o distrito escolar puede adoptar un máximo menor o mayor según el §458-a(2)(d)); Impuestos del Estado de Nueva York, exención alternativa para veteranos',
  ],
  [
    "NYS Tax, Assessor manual, RPTL §458-a assessor guide: a qualifying wartime veteran's property receives an exemption of 15% of its assessed value",
    'Impuestos del Estado de Nueva York, manual del tasador, guía de la RPTL §458-a: la propiedad de un veterano de guerra que califica recibe una exención del 15% de su valor tasado',
  ],
  [
    'NYS Tax, Assessor manual, RPTL §458-a assessor guide: an additional 10% exemption where the veteran can document service in a combat theatre or zone',
    'Impuestos del Estado de Nueva York, manual del tasador, guía de la RPTL §458-a: una exención adicional del 10% si el veterano puede documentar servicio en un teatro o zona de combate',
  ],
  [
    "NYS Tax, Assessor manual, RPTL §458-a assessor guide: the percentage for the disability exemption is equal to one-half of the veteran's disability rating",
    'Impuestos del Estado de Nueva York, manual del tasador, guía de la RPTL §458-a: el porcentaje de la exención por discapacidad es la mitad del grado de discapacidad del veterano',
  ],
  [
    'NYS Tax, Types of STAR: based on the first $30,000 (Basic) and, for the 2024-2025 school year, the first $84,000 (Enhanced) of the full value of a home',
    'Impuestos del Estado de Nueva York, tipos de STAR: sobre los primeros $30,000 (básico) y, para el año escolar 2024-2025, los primeros $84,000 (mejorado) del valor total de la vivienda',
  ],
  [
    'NYS Tax, Types of STAR: based on the first $30,000 (Basic) and, for the 2025-2026 school year, the first $86,100 (Enhanced) of the full value of a home',
    'Impuestos del Estado de Nueva York, tipos de STAR: sobre los primeros $30,000 (básico) y, para el año escolar 2025-2026, los primeros $86,100 (mejorado) del valor total de la vivienda',
  ],
  ['RPTL §425(2)(b), STAR base figures (NY Senate Open Legislation)', 'RPTL §425(2)(b), cifras base de STAR (Senado de Nueva York, Open Legislation)'],
  [
    'NYS Tax, Historical Enhanced STAR income limits: benefit year 2024 (the 2024-25 school year)',
    'Impuestos del Estado de Nueva York, límites históricos de ingresos de STAR mejorado: año de beneficio 2024 (año escolar 2024-25)',
  ],
  [
    'NYS Tax, Historical Enhanced STAR income limits: benefit year 2025 (the 2025-26 school year)',
    'Impuestos del Estado de Nueva York, límites históricos de ingresos de STAR mejorado: año de beneficio 2025 (año escolar 2025-26)',
  ],
  [
    'NYS Tax, Historical Enhanced STAR income limits: benefit year 2026 (the 2026-27 school year)',
    'Impuestos del Estado de Nueva York, límites históricos de ingresos de STAR mejorado: año de beneficio 2026 (año escolar 2026-27)',
  ],
  [
    "Texas Tax Code §23.23(a): the appraised value of a residence homestead may not exceed the lesser of its market value or 110% of the preceding year's appraised value (plus new improvements)",
    'Código Tributario de Texas §23.23(a): el valor tasado de una vivienda principal no puede superar el menor entre su valor de mercado y el 110% del valor tasado del año anterior (más las mejoras nuevas)',
  ],
  [
    "California Revenue and Taxation Code §205.5(a), disabled veterans' exemption: who qualifies",
    'Código de Ingresos e Impuestos de California §205.5(a), exención para veteranos discapacitados: quién califica',
  ],
  [
    "California Revenue and Taxation Code §205.5, disabled veterans' exemption: the basic and low-income amounts",
    'Código de Ingresos e Impuestos de California §205.5, exención para veteranos discapacitados: los montos básico y de bajos ingresos',
  ],
  [
    'NYC Department of Finance, Veterans Exemption (RPTL §458-a; NYC Administrative Code §11-245.6)',
    'Departamento de Finanzas de NYC, exención para veteranos (RPTL §458-a; Código Administrativo de NYC §11-245.6)',
  ],
  [
    'NYS Tax, RPTL §458-a assessor guide: 15% of the assessed value',
    'Impuestos del Estado de Nueva York, guía de la RPTL §458-a para tasadores: 15% del valor tasado',
  ],
  [
    'Texas Tax Code §23.23, limitation on appraised value of residence homestead',
    'Código Tributario de Texas §23.23, límite al valor tasado de la vivienda principal',
  ],
  [
    'California State Board of Equalization, Property Tax Allocations (Annual Report Tables 14 and 15), data set PropTaxGenPropTaxLevies, roll year 2024-25: average tax rate and levies by county',
    'Junta Estatal de Ecualización de California, asignaciones del impuesto a la propiedad (informe anual, tablas 14 y 15), conjunto de datos PropTaxGenPropTaxLevies, año de registro 2024-25: tasa promedio y gravámenes por condado',
  ],
  [
    'Florida Department of Revenue, Property Tax Oversight, Millage and Taxes Levied Report, sheet Millage Rates by County, 2025 (data extract November 2025)',
    'Departamento de Ingresos de Florida, supervisión del impuesto a la propiedad, informe de milésimas e impuestos recaudados, hoja de milésimas por condado, 2025 (extracción de datos de noviembre de 2025)',
  ],
  [
    'Texas Comptroller of Public Accounts, Property Tax Assistance Division, Tax Rates and Levies 2025: county, school district and city rates (Detail sheets, version Working of 01/28/2026)',
    'Contralor de Cuentas Públicas de Texas, División de Asistencia del Impuesto a la Propiedad, tasas y gravámenes 2025: tasas del condado, del distrito escolar y de la ciudad (hojas de detalle, versión de trabajo del 01/28/2026)',
  ],
];
