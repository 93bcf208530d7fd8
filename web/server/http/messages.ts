/**
 * The one catalogue of every text the API answers with, in English and Spanish.
 * The web page shows `message` as-is, so every entry must read well to a visitor.
 * Keys double as the machine-readable `error` code of an error answer.
 */
export type Language = 'en' | 'es';

type Entry = Readonly<Record<Language, string>>;

export const MESSAGES = {
  // Successes.
  subscribed: {
    en: 'Thanks for subscribing! Please check your email to confirm your subscription.',
    es: '¡Gracias por suscribirte! Revisa tu correo electrónico para confirmar tu suscripción.',
  },
  notify_registered: {
    en: "Thanks! We'll email you as soon as the new rates are published.",
    es: '¡Gracias! Te enviaremos un correo en cuanto se publiquen las nuevas tasas.',
  },
  contact_received: {
    en: "Thanks for your message! We'll get back to you soon.",
    es: '¡Gracias por tu mensaje! Te responderemos pronto.',
  },
  deletion_requested: {
    en: 'If we hold anything about this address, we have sent it a link to delete it.',
    es: 'Si guardamos algo sobre esta dirección, le enviamos un enlace para borrarlo.',
  },
  healthy: { en: 'ok', es: 'ok' },

  // Field validation.
  email_required: {
    en: 'Please enter your email address.',
    es: 'Por favor ingresa tu correo electrónico.',
  },
  invalid_email: {
    en: 'Please enter a valid email address.',
    es: 'Por favor ingresa un correo electrónico válido.',
  },
  first_name_required: {
    en: 'Please enter your first name.',
    es: 'Por favor ingresa tu nombre.',
  },
  invalid_first_name: {
    en: 'Please enter a valid first name (up to 100 characters).',
    es: 'Por favor ingresa un nombre válido (hasta 100 caracteres).',
  },
  state_required: {
    en: 'Please choose a state.',
    es: 'Por favor elige un estado.',
  },
  invalid_state: {
    en: 'Please choose a supported state: NY, TX, CA or FL.',
    es: 'Por favor elige un estado disponible: NY, TX, CA o FL.',
  },
  invalid_language: {
    en: 'The language must be English (en) or Spanish (es).',
    es: 'El idioma debe ser inglés (en) o español (es).',
  },
  invalid_tags: {
    en: 'The newsletter topics sent are not valid.',
    es: 'Los temas del boletín enviados no son válidos.',
  },
  invalid_county: {
    en: 'Please choose a valid county.',
    es: 'Por favor elige un condado válido.',
  },
  invalid_calculated_tax: {
    en: 'The calculated tax amount is not valid.',
    es: 'El monto de impuesto calculado no es válido.',
  },
  name_required: {
    en: 'Please enter your name.',
    es: 'Por favor ingresa tu nombre.',
  },
  invalid_name: {
    en: 'Please enter a valid name (up to 100 characters).',
    es: 'Por favor ingresa un nombre válido (hasta 100 caracteres).',
  },
  subject_required: {
    en: 'Please enter a subject.',
    es: 'Por favor ingresa un asunto.',
  },
  invalid_subject: {
    en: 'Please enter a valid subject on one line (up to 150 characters).',
    es: 'Por favor ingresa un asunto válido en una sola línea (hasta 150 caracteres).',
  },
  message_required: {
    en: 'Please enter your message.',
    es: 'Por favor escribe tu mensaje.',
  },
  invalid_message: {
    en: 'Please enter a valid message (up to 4,000 characters).',
    es: 'Por favor escribe un mensaje válido (hasta 4.000 caracteres).',
  },
  unknown_field: {
    en: 'The form sent a field that is not accepted. Please reload the page and try again.',
    es: 'El formulario envió un campo no permitido. Recarga la página e inténtalo de nuevo.',
  },
  invalid_request: {
    en: 'The form data is not valid. Please check it and try again.',
    es: 'Los datos del formulario no son válidos. Revísalos e inténtalo de nuevo.',
  },

  // Transport-level refusals.
  invalid_json: {
    en: 'The request could not be read. Please reload the page and try again.',
    es: 'No se pudo leer la solicitud. Recarga la página e inténtalo de nuevo.',
  },
  body_too_large: {
    en: 'The form is too large to send. Please shorten it and try again.',
    es: 'El formulario es demasiado grande para enviarlo. Acórtalo e inténtalo de nuevo.',
  },
  unsupported_charset: {
    en: 'The request must be sent in UTF-8.',
    es: 'La solicitud debe enviarse en UTF-8.',
  },
  invalid_encoding: {
    en: 'The request is not valid UTF-8 text. Please reload the page and try again.',
    es: 'La solicitud no es texto UTF-8 válido. Recarga la página e inténtalo de nuevo.',
  },
  unsupported_media_type: {
    en: 'The request must be sent as JSON.',
    es: 'La solicitud debe enviarse como JSON.',
  },
  rate_limited: {
    en: 'Too many requests. Please wait a minute and try again.',
    es: 'Demasiadas solicitudes. Espera un minuto e inténtalo de nuevo.',
  },
  not_found: {
    en: 'Not found.',
    es: 'No encontrado.',
  },
  request_timeout: {
    en: 'The request took too long to arrive. Please try again.',
    es: 'La solicitud tardó demasiado en llegar. Inténtalo de nuevo.',
  },
  headers_too_large: {
    en: 'The request headers are too large.',
    es: 'Los encabezados de la solicitud son demasiado grandes.',
  },
  method_not_allowed: {
    en: 'This method is not allowed here.',
    es: 'Este método no está permitido aquí.',
  },
  host_required: {
    en: 'The request has no Host header.',
    es: 'La solicitud no tiene encabezado Host.',
  },
  bad_request: {
    en: 'Something went wrong, please try again.',
    es: 'Algo salió mal, por favor inténtalo de nuevo.',
  },

  // Server-side trouble: never more detail than this.
  internal_error: {
    en: 'Something went wrong, please try again.',
    es: 'Algo salió mal, por favor inténtalo de nuevo.',
  },
  unavailable: {
    en: 'The service is temporarily unavailable. Please try again in a moment.',
    es: 'El servicio no está disponible por el momento. Inténtalo de nuevo en un momento.',
  },
  not_built: {
    en: 'The calculator has not been built yet. The API is running; build the web app to serve the page.',
    es: 'La calculadora aún no se ha compilado. La API está funcionando; compila la aplicación web para servir la página.',
  },
} as const satisfies Record<string, Entry>;

export type MessageKey = keyof typeof MESSAGES;

export function translate(key: MessageKey, language: Language): string {
  return MESSAGES[key][language];
}

export function isLanguage(value: unknown): value is Language {
  return value === 'en' || value === 'es';
}
