import type { FastifyBaseLogger } from 'fastify';
import type { SignupResult } from '../db/store.js';

/**
 * Sending mail is not this server's job yet: it records that a confirmation (double opt-in)
 * mail is due, by row id and never by address, so a mailer can be plugged in later.
 */
export function noteConfirmationDue(log: FastifyBaseLogger, list: 'newsletter' | 'notify', result: SignupResult): void {
  if (!result.pending) return;
  log.info({ list, rowId: result.id, newRow: result.created }, 'confirmation email would be sent');
}
