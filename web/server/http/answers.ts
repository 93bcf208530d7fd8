import type { FastifyReply, FastifyRequest } from 'fastify';
import { payloadLanguage, pickLanguage } from './language.js';
import { translate, type Language, type MessageKey } from './messages.js';

/**
 * The one shape every API answer has, success or failure:
 * `error` is null on success, else a stable code (a message catalogue key) for programs;
 * `message` is the text the page shows, in the visitor's language;
 * `status` repeats the HTTP status code.
 */
export interface ApiAnswer {
  error: MessageKey | null;
  message: string;
  status: number;
}

export function apiAnswer(status: number, key: MessageKey, language: Language): ApiAnswer {
  return { error: status >= 400 ? key : null, message: translate(key, language), status };
}

export function sendAnswer(reply: FastifyReply, status: number, key: MessageKey, language: Language): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(apiAnswer(status, key, language));
}

/** Language of an answer to this request: payload's `language`, else Accept-Language, else en. */
export function requestLanguage(request: FastifyRequest): Language {
  return pickLanguage(payloadLanguage(request.body), request.headers['accept-language']);
}
