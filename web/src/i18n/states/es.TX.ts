/** Spanish text of the TX edition only (loaded with it; the base text is in ../es.ts). */
import type { StateText } from '../en.js';

const text: StateText = {
  edition: {
    people_TX: 'texanos',
    exemptions_TX: 'exenciones de vivienda principal, mayores de 65, discapacidad y veteranos',
    authority_TX: 'el distrito de tasación y el recaudador de impuestos de su condado',
  },
  directory: {
    where_TX: 'Encuentre su distrito de tasación en el directorio del Contralor de Texas (comptroller.texas.gov).',
  },
};

export default text;
