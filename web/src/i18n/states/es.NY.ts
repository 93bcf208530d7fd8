/** Spanish text of the NY edition only (loaded with it; the base text is in ../es.ts). */
import type { StateText } from '../en.js';

const text: StateText = {
  edition: {
    people_NY: 'neoyorquinos',
    exemptions_NY: 'exenciones STAR, de personas mayores y de veteranos',
    authority_NY: 'el tasador de su condado o el Departamento de Finanzas de NYC',
  },
  directory: {
    where_NY: 'Encuentre a su tasador a través del Departamento de Impuestos y Finanzas del Estado de Nueva York (tax.ny.gov).',
  },
};

export default text;
