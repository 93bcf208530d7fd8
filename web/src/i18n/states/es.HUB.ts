/** Spanish text of the HUB edition only (loaded with it; the base text is in ../es.ts). */
import type { StateText } from '../en.js';

const text: StateText = {
  edition: {
    people_HUB: 'propietarios',
    exemptions_HUB: 'exenciones',
    authority_HUB: 'el tasador de su condado',
  },
};

export default text;
