/**
 * Text of the consent banner, to be merged by the lead into web/src/i18n/en.ts and es.ts
 * under the `consent` key (the component reads `consent.*`).
 * The text says plainly what accepting records (seed 001 §3 payload: value, county, tax).
 */
export const consentText = {
  en: {
    consent: {
      title: 'Usage statistics',
      text: 'May we record anonymous usage statistics? If you accept, the pages you visit and your calculations (home value, county, estimated tax) are counted to help us improve the calculator. Nothing is recorded if you decline, and you can change your choice at any time.',
      privacy: 'Privacy policy',
      accept: 'Accept statistics',
      decline: 'Decline',
      close: 'Close',
      settings: 'Usage statistics settings',
      currentOn: 'Usage statistics are on.',
      currentOff: 'Usage statistics are off.',
      savedOn: 'Saved: usage statistics are on.',
      savedOff: 'Saved: usage statistics are off.',
    },
  },
  es: {
    consent: {
      title: 'Estadísticas de uso',
      text: '¿Podemos registrar estadísticas de uso anónimas? Si acepta, se cuentan las páginas que visita y sus cálculos (valor de la vivienda, condado, impuesto estimado) para ayudarnos a mejorar la calculadora. No se registra nada si lo rechaza, y puede cambiar su elección en cualquier momento.',
      privacy: 'Política de privacidad',
      accept: 'Aceptar estadísticas',
      decline: 'Rechazar',
      close: 'Cerrar',
      settings: 'Configuración de estadísticas de uso',
      currentOn: 'Las estadísticas de uso están activadas.',
      currentOff: 'Las estadísticas de uso están desactivadas.',
      savedOn: 'Guardado: las estadísticas de uso están activadas.',
      savedOff: 'Guardado: las estadísticas de uso están desactivadas.',
    },
  },
};

export default consentText;
