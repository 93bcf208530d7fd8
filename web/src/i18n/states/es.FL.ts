/** Spanish text of the FL edition only (loaded with it; the base text is in ../es.ts). */
import type { StateText } from '../en.js';

const text: StateText = {
  edition: {
    people_FL: 'floridanos',
    exemptions_FL: 'exenciones de vivienda principal, personas mayores y veteranos, y Save Our Homes',
    authority_FL: 'el tasador de propiedades y el recaudador de impuestos de su condado',
  },
  directory: {
    where_FL: 'Encuentre a su tasador de propiedades en el directorio del Departamento de Ingresos de Florida (floridarevenue.com).',
  },
};

export default text;
