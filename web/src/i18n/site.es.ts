/** Text of the site's pages other than the calculator (loaded with their chunk, components/site/SitePages.ts). */
import type { SiteText } from './site.en.js';

const siteEs: SiteText = {
  site: {
    calculator: {
      title: 'Calculadora de impuestos a la propiedad de {{state}}',
      description: 'Calcule el impuesto anual y mensual a la propiedad de una vivienda en {{state}} con su condado y sus exenciones.',
    },
    howItWorks: {
      title: 'Cómo funciona la estimación',
      description:
        'Cómo ptax convierte el valor de una vivienda, un condado y las exenciones en un impuesto anual, y las convenciones que usa donde la ley deja una elección.',
      steps: [
        'Usted indica el valor de mercado de la vivienda, elige el condado y marca las exenciones que tiene o piensa solicitar.',
        'Las reglas de su estado, escritas como archivos de datos con una fuente para cada cifra, fijan el valor tasado, restan cada exención de los valores a los que se aplica y gravan cada parte con su tasa: escuelas, condado, ciudad o pueblo y distritos especiales.',
        'La suma es su impuesto anual estimado; dividido entre 12, el monto mensual; dividido entre el valor, la tasa efectiva.',
        'Todo se calcula en su navegador. No se envía ni se guarda nada sobre su propiedad.',
      ],
      conventionsTitle: 'Nuestras convenciones',
      conventionsIntro:
        'Donde la ley o los datos publicados dejan una elección, ptax usa estas cifras. Cada una forma parte de los archivos de reglas y solo cambia con ellos.',
      sourcesTitle: 'De dónde vienen las cifras',
      sourcesText:
        'Las tasas de los condados son tasas efectivas de la Encuesta sobre la Comunidad Estadounidense de la Oficina del Censo, publicadas por la Tax Foundation; las exenciones, los topes y los calendarios citan la ley o la página de la agencia junto a cada cifra en la explicación de un resultado.',
    },
    taxGuides: {
      title: 'Guías de impuestos a la propiedad',
      description: 'Guías en lenguaje claro sobre impuestos a la propiedad, exenciones, apelaciones y pagos.',
      intro: 'Guías escritas para propietarios y compradores. Cada cifra que citan proviene de los mismos archivos de reglas que la calculadora.',
      none: 'Las guías de esta edición se están escribiendo.',
    },
    counties: {
      title: 'Impuesto a la propiedad por condado en {{state}}',
      description: 'La tasa del impuesto a la propiedad de cada uno de los {{count}} condados de {{state}}, con el impuesto estimado de una vivienda típica.',
      intro:
        'Elija un condado para ver su tasa, cómo se reparte el impuesto entre escuelas, condado, ciudades y distritos especiales, y una estimación para una vivienda típica.',
    },
    timeline: {
      title: 'Calendario del impuesto a la propiedad de {{state}}',
      description:
        'Las fechas del año del impuesto a la propiedad de {{state}} según las reglas: la fecha de gravamen, las solicitudes de exención, las apelaciones de tasación y los dos plazos.',
      intro: 'Las fechas del año del impuesto a la propiedad de {{state}}, en orden del calendario, tal como las tienen las reglas de esta calculadora.',
      due: 'Fecha de pago',
      deadline: 'Fecha límite',
      verify: 'Las fechas tal como las tienen las reglas; verifique las fechas de su factura y de sus avisos con su condado.',
    },
    county: {
      title: 'Impuesto a la propiedad en {{county}}, {{state}}',
      description:
        'La tasa del impuesto a la propiedad en {{county}}, {{state}}, cómo se reparte entre escuelas, condado, ciudades y distritos especiales, el impuesto estimado de una vivienda de {{value}} y las exenciones que se aplican.',
      rate: 'Tasa del condado',
      typicalRate: 'Tasa típica de los propietarios',
      typicalRateHelp:
        'Lo que pagan en promedio los propietarios de aquí, después de sus exenciones y topes (Censo): una comparación, no la tasa de su estimación.',
      noRate: 'No se publica una tasa para este condado: se usa el promedio estatal.',
      byClass: 'Grava por clase de propiedad: elija la clase en la calculadora.',
      split: 'A dónde va el impuesto',
      estimateTitle: 'Impuesto anual estimado',
      atValue: 'Para una vivienda de {{value}}',
      atCountyMedian: 'Para el valor mediano de las viviendas del condado ({{value}})',
      atStateMedian: 'Para el valor típico de una vivienda en {{state}} ({{value}})',
      medianNote: 'El valor típico de {{state}} es el valor central de las medianas de sus condados, no una mediana estatal. Valores de las viviendas:',
      exemptions: 'Exenciones que pueden aplicarse',
      open: 'Calcule para su vivienda en {{county}}',
      unknown: 'No hay ningún condado con este nombre en {{state}}.',
      noExemptions: 'Sin exenciones; las suyas pueden reducir el impuesto.',
      year: 'Año fiscal {{year}}',
    },
    glossary: {
      jump: 'Ir a una categoría',
      search: 'Buscar en el glosario',
      count: '{{count}} entradas mostradas',
      none: 'Ningún término coincide con "{{query}}".',
    },
    faq: {
      title: 'Preguntas frecuentes',
      description: 'Respuestas sobre impuestos a la propiedad, la calculadora, exenciones, pagos y apelaciones.',
      search: 'Buscar en las preguntas',
      none: 'Ninguna pregunta coincide con "{{query}}".',
      categories: { general: 'General', calculations: 'Cálculos', exemptions: 'Exenciones', payments: 'Pagos', appeals: 'Apelaciones' },
    },
    about: {
      title: 'Acerca de ptax',
      description: 'ptax es un estimador gratuito y anónimo del impuesto a la propiedad para Nueva York, Texas, California y Florida.',
      body: [
        'ptax estima el impuesto a la propiedad para propietarios y compradores en Nueva York, Texas, California y Florida, en inglés y en español. Es gratuito, no necesita cuenta y lo calcula todo en su dispositivo.',
        'Cada tasa, exención, tope y calendario está en archivos de reglas versionados con la fuente de cada cifra, revisados como una ley. La calculadora, las guías y las páginas de los condados leen los mismos archivos, así que una cifra es la misma dondequiera que la vea.',
        'ptax ofrece una estimación, no asesoría fiscal profesional. Su condado fija el valor tasado y envía la factura.',
      ],
    },
    privacy: {
      title: 'Política de privacidad',
      description: 'Qué guarda ptax y qué no hace nunca.',
      body: [
        'Los cálculos se hacen en su navegador. Los valores, condados y exenciones que usted introduce nunca se nos envían ni los guardamos.',
        'Si se suscribe al boletín o a un aviso de tasas, o nos escribe, guardamos su dirección de correo (y el nombre y el mensaje que nos dé) solo para ese fin. Cada correo tiene un enlace para darse de baja, y puede pedir que se borre todo lo relativo a su dirección.',
        'Su navegador guarda algunos ajustes en su dispositivo (su idioma, el último condado elegido, si ya se mostró la ventana del boletín). Los eventos de analítica se registran solo si usted lo acepta, y nunca incluyen los datos de su propiedad.',
      ],
    },
    terms: {
      title: 'Términos del servicio',
      description: 'Los términos con los que se ofrece ptax.',
      body: [
        'ptax se ofrece gratis y tal como es. Las cifras son estimaciones a partir de tasas publicadas y de las reglas tal como las entendemos; su impuesto real lo fijan las autoridades fiscales locales.',
        'No se base solo en ptax para decisiones financieras, legales o fiscales. Compruebe las cifras con su condado antes de actuar.',
        'Puede enlazar y compartir cualquier página. No use el sitio de una manera que lo dañe a él o a otros visitantes.',
      ],
    },
    disclaimer: {
      title: 'Aviso legal',
      description: 'ptax ofrece estimaciones, no asesoría fiscal profesional.',
      body: [
        'Las estimaciones de este sitio son solo informativas y no constituyen asesoría fiscal, legal ni financiera profesional.',
        'Las tasas, las exenciones y los plazos cambian. Verifique su tasación, sus exenciones y su factura con {{authority}}.',
      ],
    },
    affiliate: {
      title: 'Divulgación de afiliados',
      description: 'Cómo trata ptax los enlaces a servicios asociados.',
      body: [
        'El enlace para declarar impuestos gratis bajo un resultado es el único de ese tipo. Cuando hay un socio configurado, se marca como patrocinado (rel="sponsored") y podemos recibir un pago si usted lo usa; si no, lleva a la página IRS Free File, con la que ptax no tiene ninguna afiliación y de la que no recibe nada.',
        'Algunas páginas pueden enlazar a servicios asociados, como herramientas gratuitas para declarar impuestos. Esos enlaces se abren en una pestaña nueva y están marcados como patrocinados.',
        'Podemos recibir una comisión cuando usted usa un servicio asociado. Eso nunca cambia una cifra que muestren la calculadora o una guía.',
      ],
    },
    notFound: {
      title: 'Página no encontrada',
      description: 'No hay ninguna página en esta dirección.',
      text: 'No hay ninguna página en esta dirección. Puede que se haya movido o que el enlace esté mal escrito.',
      home: 'Ir a la calculadora',
    },
  },
};

export default siteEs;
