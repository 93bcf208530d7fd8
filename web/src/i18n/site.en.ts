/** Text of the site's pages other than the calculator (loaded with their chunk, components/site/SitePages.ts). */
const siteEn = {
  site: {
    calculator: {
      title: '{{state}} property tax calculator',
      description: 'Estimate the annual and monthly property tax of a home in {{state}} with your county and exemptions.',
    },
    howItWorks: {
      title: 'How the estimate works',
      description: 'How ptax turns a home value, a county and exemptions into an annual tax, and the conventions it uses where the law leaves a choice.',
      steps: [
        'You give the market value of the home, choose the county and tick the exemptions you have or plan to claim.',
        'The rules of your state, written as data files with a source for every figure, set the assessed value, take each exemption off the values it applies to, and tax each part at its rate: schools, the county, the city or town, and special districts.',
        'The sum is your estimated annual tax; divided by 12, the monthly amount; divided by the value, the effective rate.',
        'Everything is computed in your browser. Nothing about your property is sent or stored.',
      ],
      conventionsTitle: 'Our conventions',
      conventionsIntro:
        'Where the law or the published data leave a choice, ptax uses these figures. Each is part of the rule files and changes only with them.',
      sourcesTitle: 'Where the figures come from',
      sourcesText:
        "County rates are effective rates from the US Census Bureau's American Community Survey as published by the Tax Foundation; exemptions, caps and schedules cite the statute or the agency page beside each figure in the explanation of a result.",
    },
    taxGuides: {
      title: 'Property tax guides',
      description: 'Plain-language guides to property taxes, exemptions, appeals and payments.',
      intro: 'Guides written for homeowners and buyers. Every figure they quote comes from the same rule files as the calculator.',
      none: 'Guides for this edition are being written.',
    },
    counties: {
      title: 'Property tax by county in {{state}}',
      description: 'The property tax rate of each of the {{count}} counties of {{state}}, with the estimated tax on a typical home.',
      intro:
        'Choose a county to see its rate, how the tax splits between schools, the county, cities and special districts, and an estimate for a typical home.',
    },
    timeline: {
      title: '{{state}} property tax timeline',
      description: 'The dates of the {{state}} property tax year from the rules: the lien date, exemption claims, assessment appeals and the two installments.',
      intro: 'The dates of the {{state}} property tax year, in calendar order, as the rules of this calculator hold them.',
      due: 'Payment date',
      deadline: 'Deadline',
      verify: 'The dates as the rules hold them; check the dates on your bill and notices with your county.',
    },
    county: {
      title: 'Property tax in {{county}}, {{state}}',
      description:
        'The property tax rate in {{county}}, {{state}}, how it splits between schools, the county, cities and special districts, the estimated tax on a {{value}} home, and the exemptions that apply.',
      rate: 'County rate',
      typicalRate: "Typical owner's rate",
      typicalRateHelp: 'What owners here pay on average, after the exemptions and caps they have (Census): a comparison, not the rate of your estimate.',
      noRate: 'No rate is published for this county: the state average is used.',
      byClass: 'Taxed by property class: choose the class in the calculator.',
      split: 'Where the tax goes',
      estimateTitle: 'Estimated annual tax',
      atValue: 'On a {{value}} home',
      atCountyMedian: "On the county's median home value ({{value}})",
      atStateMedian: "On {{state}}'s typical home value ({{value}})",
      medianNote: "{{state}}'s typical home value is the middle of its counties' median home values, not a statewide median. Home values:",
      exemptions: 'Exemptions that can apply',
      open: 'Calculate for your home in {{county}}',
      unknown: 'There is no county with this name in {{state}}.',
      noExemptions: 'Without exemptions; your own may lower the tax.',
      year: 'Tax year {{year}}',
    },
    glossary: {
      jump: 'Jump to a category',
      search: 'Search the glossary',
      count: '{{count}} entries shown',
      none: 'No term matches "{{query}}".',
    },
    faq: {
      title: 'Frequently asked questions',
      description: 'Answers about property taxes, the calculator, exemptions, payments and appeals.',
      search: 'Search the questions',
      none: 'No question matches "{{query}}".',
      categories: { general: 'General', calculations: 'Calculations', exemptions: 'Exemptions', payments: 'Payments', appeals: 'Appeals' },
    },
    about: {
      title: 'About ptax',
      description: 'ptax is a free, anonymous property tax estimator for New York, Texas, California and Florida.',
      body: [
        'ptax estimates property taxes for homeowners and buyers in New York, Texas, California and Florida, in English and Spanish. It is free, needs no account, and computes everything on your device.',
        'Every rate, exemption, cap and schedule lives in versioned rule files with the source of each figure, reviewed like law. The calculator, the guides and the county pages all read the same files, so a figure is the same wherever you see it.',
        'ptax is an estimate, not professional tax advice. Your county sets the assessed value and sends the bill.',
      ],
    },
    privacy: {
      title: 'Privacy policy',
      description: 'What ptax stores and what it never does.',
      body: [
        'Calculations happen in your browser. The values, counties and exemptions you enter are never sent to us or stored by us.',
        'If you subscribe to the newsletter or a rate notification, or write to us, we keep your e-mail address (and the name and message you give) only for that purpose. Every mail has an unsubscribe link, and you can ask for everything about your address to be deleted.',
        "Your browser keeps a few settings on your device (your language, the county you last chose, whether the newsletter window was shown). Analytics events are recorded only if you agree, and never include your property's details.",
      ],
    },
    terms: {
      title: 'Terms of service',
      description: 'The terms under which ptax is offered.',
      body: [
        'ptax is offered free of charge and as is. The figures are estimates from published rates and the rules as we understand them; your actual tax is set by your local taxing authorities.',
        'Do not rely on ptax alone for financial, legal or tax decisions. Check the figures with your county before you act.',
        'You may link to and share any page. Do not use the site in a way that harms it or other visitors.',
      ],
    },
    disclaimer: {
      title: 'Disclaimer',
      description: 'ptax gives estimates, not professional tax advice.',
      body: [
        'The estimates on this site are for information only and are not professional tax, legal or financial advice.',
        'Rates, exemptions and deadlines change. Verify your assessment, exemptions and bill with {{authority}}.',
      ],
    },
    affiliate: {
      title: 'Affiliate disclosure',
      description: 'How ptax handles links to partner services.',
      body: [
        'The free tax-filing link under a result is the only such link. When a partner is configured it is marked as sponsored (rel="sponsored") and we may be paid when you use it; otherwise it points to the IRS Free File page, with which ptax has no affiliation and from which it receives nothing.',
        'Some pages may link to partner services, such as free tax-filing tools. Such links open in a new tab and are marked as sponsored.',
        'We may receive a commission when you use a partner service. It never changes a figure the calculator or a guide shows.',
      ],
    },
    notFound: {
      title: 'Page not found',
      description: 'There is no page at this address.',
      text: 'There is no page at this address. It may have moved, or the link may be mistyped.',
      home: 'Go to the calculator',
    },
  },
};

export type SiteText = typeof siteEn;
export default siteEn;
