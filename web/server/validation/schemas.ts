import { EMAIL_MAX_LENGTH } from './email.js';
import type { FormatName } from './formats.js';
import { ACCEPTED_STATE_SPELLINGS } from './states.js';
import { TAG_MAX_LENGTH, TAGS_MAX_COUNT } from './tags.js';

/**
 * JSON schemas of the three forms. Every object refuses unknown fields (additionalProperties
 * false; Ajv is configured not to strip them silently). Length limits are in code points.
 */
export const LIMITS = {
  firstName: 100,
  county: 100,
  name: 100,
  subject: 150,
  message: 4000,
  calculatedTaxMax: 1_000_000_000,
} as const;

const text = (format: FormatName, maxLength: number) => ({ type: 'string', minLength: 1, maxLength, format }) as const;

const fields = {
  email: { type: 'string', minLength: 1, maxLength: EMAIL_MAX_LENGTH, format: 'ptax-email' },
  state: { type: 'string', enum: ACCEPTED_STATE_SPELLINGS },
  language: { type: 'string', enum: ['en', 'es'] },
} as const;

export interface NewsletterBody {
  email: string;
  state: string;
  language?: 'en' | 'es';
  tags?: string[];
  firstName?: string;
  county?: string;
  calculatedTax?: number;
}

/**
 * Banner payload: email, state, language, tags. Popup payload adds firstName, county and
 * calculatedTax; a payload carrying county or calculatedTax is a popup one, and then
 * firstName is required (a payload with firstName is validated as a popup by the field itself).
 */
export const newsletterBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'state'],
  properties: {
    ...fields,
    tags: {
      type: 'array',
      maxItems: TAGS_MAX_COUNT,
      items: { type: 'string', minLength: 1, maxLength: TAG_MAX_LENGTH, format: 'ptax-tag' },
    },
    firstName: text('ptax-person-name', LIMITS.firstName),
    county: text('ptax-line', LIMITS.county),
    calculatedTax: { type: 'number', minimum: 0, maximum: LIMITS.calculatedTaxMax },
  },
  if: {
    type: 'object',
    anyOf: [
      { type: 'object', required: ['county'] },
      { type: 'object', required: ['calculatedTax'] },
    ],
  },
  then: { type: 'object', required: ['firstName'] },
} as const;

export interface NotifyBody {
  email: string;
  state?: string;
  language?: 'en' | 'es';
}

export const notifyBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['email'],
  properties: fields,
} as const;

export interface ContactBody {
  name: string;
  email: string;
  subject: string;
  message: string;
  state?: string;
  language?: 'en' | 'es';
}

export const contactBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'email', 'subject', 'message'],
  properties: {
    name: text('ptax-person-name', LIMITS.name),
    ...fields,
    subject: text('ptax-line', LIMITS.subject),
    message: text('ptax-text', LIMITS.message),
  },
} as const;

export interface DeletionBody {
  email: string;
  language?: 'en' | 'es';
}

export const deletionBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['email'],
  properties: { email: fields.email, language: fields.language },
} as const;
