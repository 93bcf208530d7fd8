import type { Language } from '../http/messages.js';
import { displayEmail } from '../validation/email.js';
import { STATES, type StateCode } from '../validation/states.js';

/**
 * The mails the site sends, in English and Spanish, plain text and HTML. Nothing a visitor
 * typed goes into a mail except the recipient's own address: a sign-up form must not be a
 * way to send someone else chosen text.
 */

/** What the outbox stores and the transport sends (the sender is added at send time). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  language: Language;
}

export type ListName = 'newsletter' | 'notify';

export function listTitle(list: ListName, state: StateCode | '', language: Language): string {
  // The state's name in the mail's language, from its state file (the hub has none to give).
  const name = state === '' || state === STATES.hub ? '' : (STATES.names[state]?.[language] ?? '');
  if (language === 'es') {
    if (list === 'newsletter') return name ? `el boletín de impuestos a la propiedad de ${name}` : 'el boletín de impuestos a la propiedad';
    return name ? `el aviso de nuevas tasas de ${name}` : 'el aviso de nuevas tasas';
  }
  if (list === 'newsletter') return name ? `the ${name} property tax newsletter` : 'the property tax newsletter';
  return name ? `the notice when the new ${name} rates are published` : 'the notice when the new rates are published';
}

interface Paragraph {
  text: string;
  link?: { url: string; label: string };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function compose(language: Language, subject: string, paragraphs: readonly Paragraph[], footer: readonly Paragraph[]): { text: string; html: string } {
  const textOf = (p: Paragraph) => (p.link ? `${p.text}\n${p.link.url}` : p.text);
  const text = [...paragraphs.map(textOf), ...(footer.length > 0 ? ['--', ...footer.map(textOf)] : [])].join('\n\n') + '\n';
  const htmlOf = (p: Paragraph, small = false) => {
    const style = small ? ' style="font-size:13px;color:#444"' : '';
    const link = p.link ? `<br><a href="${escapeHtml(p.link.url)}">${escapeHtml(p.link.label)}</a>` : '';
    return `<p${style}>${escapeHtml(p.text)}${link}</p>`;
  };
  const html =
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="font-family:system-ui,sans-serif;line-height:1.5;max-width:36em">` +
    paragraphs.map((p) => htmlOf(p)).join('') +
    (footer.length > 0 ? '<hr>' : '') +
    footer.map((p) => htmlOf(p, true)).join('') +
    `</body></html>`;
  return { text, html };
}

/** RFC 2369 / RFC 8058 headers: one-click unsubscribe by POST to the link. */
export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

export interface ConfirmationMailInput {
  list: ListName;
  state: StateCode | '';
  language: Language;
  email: string;
  confirmUrl: string;
  unsubscribeUrl: string;
  deleteUrl: string;
  tokenDays: number;
  pendingDays: number;
}

/** The double opt-in mail of the newsletter or the notify list. */
export function confirmationMail(input: ConfirmationMailInput): MailMessage {
  const { language } = input;
  const title = listTitle(input.list, input.state, language);
  const address = displayEmail(input.email);
  const es = language === 'es';
  const subject = es ? `Confirma tu suscripción: ${title.replace(/^el /, '')}` : `Please confirm your subscription: ${title.replace(/^the /, '')}`;
  const paragraphs: Paragraph[] = es
    ? [
        { text: 'Hola:' },
        { text: `Alguien, esperamos que tú, pidió recibir ${title} en ${address}.` },
        { text: `Para confirmarlo, abre este enlace (vale ${input.tokenDays} días):`, link: { url: input.confirmUrl, label: 'Confirmar mi suscripción' } },
        {
          text: `Si no lo pediste tú, ignora este correo: sin confirmación no te enviaremos nada más, y la solicitud se borra a los ${input.pendingDays} días.`,
        },
      ]
    : [
        { text: 'Hello,' },
        { text: `Someone, hopefully you, asked to receive ${title} at ${address}.` },
        { text: `To confirm, open this link (it works for ${input.tokenDays} days):`, link: { url: input.confirmUrl, label: 'Confirm my subscription' } },
        {
          text: `If it was not you, ignore this mail: without a confirmation we send you nothing more, and the request is deleted after ${input.pendingDays} days.`,
        },
      ];
  const footer: Paragraph[] = es
    ? [
        { text: 'Cancelar la suscripción:', link: { url: input.unsubscribeUrl, label: 'Cancelar la suscripción' } },
        { text: 'Borrar todo lo que guardamos sobre esta dirección:', link: { url: input.deleteUrl, label: 'Borrar mis datos' } },
      ]
    : [
        { text: 'Unsubscribe:', link: { url: input.unsubscribeUrl, label: 'Unsubscribe' } },
        { text: 'Delete everything we hold about this address:', link: { url: input.deleteUrl, label: 'Delete my data' } },
      ];
  return { to: input.email, subject, ...compose(language, subject, paragraphs, footer), headers: unsubscribeHeaders(input.unsubscribeUrl), language };
}

export interface DeletionMailInput {
  language: Language;
  email: string;
  confirmUrl: string;
  tokenDays: number;
}

/** The link that confirms a deletion request. */
export function deletionMail(input: DeletionMailInput): MailMessage {
  const { language } = input;
  const address = displayEmail(input.email);
  const es = language === 'es';
  const subject = es ? 'Confirma el borrado de tus datos' : 'Please confirm the deletion of your data';
  const paragraphs: Paragraph[] = es
    ? [
        { text: 'Hola:' },
        { text: `Alguien, esperamos que tú, pidió borrar todo lo que guardamos sobre ${address}: suscripciones, avisos y mensajes de contacto.` },
        {
          text: `Para borrarlo, abre este enlace (vale ${input.tokenDays} días) y pulsa el botón:`,
          link: { url: input.confirmUrl, label: 'Borrar mis datos' },
        },
        { text: 'Si no lo pediste tú, ignora este correo: no se borra nada.' },
      ]
    : [
        { text: 'Hello,' },
        { text: `Someone, hopefully you, asked us to delete everything we hold about ${address}: subscriptions, notices and contact messages.` },
        {
          text: `To delete it, open this link (it works for ${input.tokenDays} days) and press the button:`,
          link: { url: input.confirmUrl, label: 'Delete my data' },
        },
        { text: 'If it was not you, ignore this mail: nothing is deleted.' },
      ];
  return { to: input.email, subject, ...compose(language, subject, paragraphs, []), headers: {}, language };
}
