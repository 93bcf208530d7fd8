/** Spanish text of the CA edition only (loaded with it; the base text is in ../es.ts). */
import type { StateText } from '../en.js';

const text: StateText = {
  edition: {
    people_CA: 'californianos',
    exemptions_CA: 'las exenciones para propietarios y veteranos discapacitados, la Proposición 13 y Mello-Roos',
    authority_CA: 'el tasador y el recaudador de impuestos de su condado',
  },
  directory: {
    where_CA: 'Encuentre al tasador de su condado a través de la Junta Estatal de Ecualización de California (boe.ca.gov).',
  },
};

export default text;
