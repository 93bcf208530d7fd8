import { isValidEmail } from './email.js';
import { isKnownTag } from './tags.js';
import { isMultiLineText, isPersonName, isSingleLineText } from './text.js';

/**
 * The string formats the request schemas use, registered on Fastify's Ajv instance, so that
 * every field rule lives in one tested function and every refusal comes out of schema
 * validation with the field's path.
 */
export const FORMATS = {
  'ptax-email': isValidEmail,
  'ptax-tag': isKnownTag,
  'ptax-line': isSingleLineText,
  'ptax-person-name': isPersonName,
  'ptax-text': isMultiLineText,
} as const satisfies Record<string, (value: string) => boolean>;

export type FormatName = keyof typeof FORMATS;

/** The part of Ajv's interface this needs (Fastify hands plugins its own Ajv instance). */
interface FormatRegistry {
  addFormat(name: string, format: { type: 'string'; validate: (value: string) => boolean }): unknown;
}

export function addPtaxFormats<A extends FormatRegistry>(ajv: A): A {
  for (const [name, validate] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate });
  return ajv;
}
