import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../db/store.js';
import type { Language } from '../http/messages.js';
import type { RateLimiter } from '../http/rate-limit.js';
import { PAGE_PATHS } from '../mail/links.js';
import type { MailWorker } from '../mail/outbox.js';
import { listTitle, type ListName } from '../mail/templates.js';
import { displayEmail, isValidEmail, normalizeEmail } from '../validation/email.js';
import type { StateCode } from '../validation/states.js';
import { renderPage, type PageContent } from './html.js';

/**
 * The pages the mails link to, in English (/confirm, /unsubscribe, /delete-my-data,
 * /delete-my-data/confirm) and Spanish (/es/confirmar, /es/cancelar-suscripcion,
 * /es/borrar-mis-datos, /es/borrar-mis-datos/confirmar):
 * - GET confirm?token=…: a page with a button, which changes nothing (link scanners open
 *   links, HEAD included: Fastify's HEAD runs this GET handler); POST (the button) confirms;
 * - GET unsubscribe?token=…: a page with a button, which changes nothing; POST (the button,
 *   or a mail client's RFC 8058 one-click POST of `List-Unsubscribe=One-Click`) unsubscribes;
 * - GET delete-my-data: a form asking for the address; POST sends a deletion link when the
 *   address is known, and answers the same page whether or not it is;
 * - GET delete-my-data/confirm?token=…: a page with a button; POST deletes every row about
 *   the address.
 * A page about a known token speaks the subscriber's stored language; otherwise the path's.
 * Token pages are not cached and send no Referer (the token is in the URL).
 */
export interface PageRoutesOptions {
  store: Store;
  worker: MailWorker;
  limiter: RateLimiter;
  tokenDays: number;
}

interface TokenQuery {
  token?: string;
}

const T = {
  en: {
    home: 'Back to the calculator',
    deleteLink: 'Delete everything we hold about my address',
    badLinkTitle: 'This link has expired or was already used',
    badConfirm: (days: number) =>
      `Confirmation links work once, for ${days} days. To subscribe, sign up again on the calculator's page: we will send you a new link.`,
    confirmTitle: 'Confirm your subscription',
    confirmAsk: (title: string, address: string) => `Send ${title} to ${address}? Press the button to confirm.`,
    confirmButton: 'Confirm my subscription',
    confirmedTitle: 'Subscription confirmed',
    confirmed: (title: string) => `Thank you: you will receive ${title}. Every mail has a link to unsubscribe.`,
    unsubscribeTitle: 'Unsubscribe',
    unsubscribeAsk: (title: string, address: string) => `Stop sending ${title} to ${address}?`,
    unsubscribeButton: 'Unsubscribe',
    unsubscribedTitle: 'You are unsubscribed',
    unsubscribed: (title: string, address: string) => `We will send no more of ${title} to ${address}.`,
    badUnsubscribe:
      'This unsubscribe link is not valid (the address may already have been deleted). If our mails still reach you, ask for the deletion of your data below.',
    badUnsubscribeTitle: 'This unsubscribe link is not valid',
    deleteTitle: 'Delete my data',
    deleteIntro:
      'Enter your e-mail address. If we hold anything about it (subscriptions, notice requests, contact messages), we send it a link that deletes all of it.',
    emailLabel: 'E-mail address',
    emailHint: 'For example: name@example.com',
    emailError: 'Please enter a valid e-mail address.',
    deleteButton: 'Send me the deletion link',
    deleteSentTitle: 'Check your mail',
    deleteSent: (address: string, days: number) =>
      `If we hold anything about ${address}, we have sent it a link to delete it. The link works for ${days} days. If no mail arrives, we hold nothing about this address.`,
    deleteConfirmTitle: 'Delete your data',
    deleteConfirmAsk: 'This deletes every subscription, notice request and contact message of this address. It cannot be undone.',
    deleteConfirmButton: 'Delete my data',
    deletedTitle: 'Your data has been deleted',
    deleted: 'We hold nothing more about this address. Nothing more will be sent to it.',
    badDelete: (days: number) => `Deletion links work once, for ${days} days. You can ask for a new one.`,
    newDeleteLink: 'Ask for a new deletion link',
  },
  es: {
    home: 'Volver a la calculadora',
    deleteLink: 'Borrar todo lo que guardan sobre mi dirección',
    badLinkTitle: 'Este enlace caducó o ya se usó',
    badConfirm: (days: number) =>
      `Los enlaces de confirmación sirven una vez, durante ${days} días. Para suscribirte, vuelve a registrarte en la página de la calculadora: te enviaremos un enlace nuevo.`,
    confirmTitle: 'Confirma tu suscripción',
    confirmAsk: (title: string, address: string) => `¿Enviar ${title} a ${address}? Pulsa el botón para confirmar.`,
    confirmButton: 'Confirmar mi suscripción',
    confirmedTitle: 'Suscripción confirmada',
    confirmed: (title: string) => `Gracias: recibirás ${title}. Cada correo trae un enlace para cancelar la suscripción.`,
    unsubscribeTitle: 'Cancelar la suscripción',
    unsubscribeAsk: (title: string, address: string) => `¿Dejar de enviar ${title} a ${address}?`,
    unsubscribeButton: 'Cancelar la suscripción',
    unsubscribedTitle: 'Suscripción cancelada',
    unsubscribed: (title: string, address: string) => `No enviaremos más ${title} a ${address}.`,
    badUnsubscribe:
      'Este enlace para cancelar la suscripción no es válido (quizá la dirección ya se borró). Si nuestros correos te siguen llegando, pide el borrado de tus datos aquí abajo.',
    badUnsubscribeTitle: 'Este enlace no es válido',
    deleteTitle: 'Borrar mis datos',
    deleteIntro:
      'Escribe tu correo electrónico. Si guardamos algo sobre él (suscripciones, avisos, mensajes de contacto), le enviamos un enlace que lo borra todo.',
    emailLabel: 'Correo electrónico',
    emailHint: 'Por ejemplo: nombre@ejemplo.com',
    emailError: 'Por favor ingresa un correo electrónico válido.',
    deleteButton: 'Enviarme el enlace de borrado',
    deleteSentTitle: 'Revisa tu correo',
    deleteSent: (address: string, days: number) =>
      `Si guardamos algo sobre ${address}, le enviamos un enlace para borrarlo. El enlace sirve durante ${days} días. Si no llega ningún correo, no guardamos nada sobre esta dirección.`,
    deleteConfirmTitle: 'Borrar tus datos',
    deleteConfirmAsk: 'Esto borra todas las suscripciones, avisos y mensajes de contacto de esta dirección. No se puede deshacer.',
    deleteConfirmButton: 'Borrar mis datos',
    deletedTitle: 'Tus datos se borraron',
    deleted: 'Ya no guardamos nada sobre esta dirección. No le enviaremos nada más.',
    badDelete: (days: number) => `Los enlaces de borrado sirven una vez, durante ${days} días. Puedes pedir uno nuevo.`,
    newDeleteLink: 'Pedir un nuevo enlace de borrado',
  },
} as const;

const home = (language: Language) => (language === 'es' ? '/es' : '/');

function tokenOf(request: FastifyRequest<{ Querystring: TokenQuery }>): string {
  const token = request.query.token;
  return typeof token === 'string' ? token : '';
}

function sendPage(reply: FastifyReply, status: number, content: PageContent): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(renderPage(content));
}

function withToken(path: string, token: string): string {
  return `${path}?token=${encodeURIComponent(token)}`;
}

export const pageRoutes: FastifyPluginAsync<PageRoutesOptions> = async (app, { store, worker, limiter, tokenDays }) => {
  // HTML forms post urlencoded; RFC 8058 one-click posts may be multipart (the token is in
  // the URL, the body is not needed). Nothing else.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (_request, _body, done) => done(null, {}));
  app.addHook('onRequest', async (request, reply) => (request.method === 'POST' ? limiter.hook(request, reply) : undefined));

  for (const language of ['en', 'es'] as const) {
    const t = T[language];
    const paths = {
      confirm: PAGE_PATHS.confirm[language],
      unsubscribe: PAGE_PATHS.unsubscribe[language],
      deleteRequest: PAGE_PATHS.deleteRequest[language],
      deleteConfirm: PAGE_PATHS.deleteConfirm[language],
    };

    // Confirmation (double opt-in): the page with the button (a read), and the POST that confirms.
    const badConfirm = (): PageContent => ({ language, title: t.badLinkTitle, paragraphs: [t.badConfirm(tokenDays)], links: [[t.home, home(language)]] });
    app.get<{ Querystring: TokenQuery }>(paths.confirm, async (request, reply) => {
      const token = tokenOf(request);
      const target = store.confirmTarget(token);
      if (target === undefined) return sendPage(reply, 200, badConfirm());
      const l = T[target.language];
      return sendPage(reply, 200, {
        language: target.language,
        title: l.confirmTitle,
        paragraphs: [l.confirmAsk(listTitle(target.list, target.state, target.language), displayEmail(target.email))],
        form: { action: withToken(PAGE_PATHS.confirm[target.language], token), button: l.confirmButton },
      });
    });
    app.post<{ Querystring: TokenQuery }>(paths.confirm, async (request, reply) => {
      const outcome = await store.confirm(tokenOf(request));
      if (!outcome.ok) return sendPage(reply, 200, badConfirm());
      const l = T[outcome.language];
      return sendPage(reply, 200, {
        language: outcome.language,
        title: l.confirmedTitle,
        paragraphs: [l.confirmed(listTitle(outcome.list, outcome.state, outcome.language))],
        links: [[l.home, home(outcome.language)]],
      });
    });

    // Unsubscribe: the page with the button, and the POST (button or one-click).
    const unsubscribePage = (target: { list: ListName; state: StateCode | ''; language: Language; email: string }, token: string): PageContent => {
      const l = T[target.language];
      return {
        language: target.language,
        title: l.unsubscribeTitle,
        paragraphs: [l.unsubscribeAsk(listTitle(target.list, target.state, target.language), displayEmail(target.email))],
        form: { action: withToken(PAGE_PATHS.unsubscribe[target.language], token), button: l.unsubscribeButton },
      };
    };
    const badUnsubscribe = (): PageContent => ({
      language,
      title: t.badUnsubscribeTitle,
      paragraphs: [t.badUnsubscribe],
      links: [
        [t.deleteLink, paths.deleteRequest],
        [t.home, home(language)],
      ],
    });
    app.get<{ Querystring: TokenQuery }>(paths.unsubscribe, async (request, reply) => {
      const token = tokenOf(request);
      const target = store.unsubscribeTarget(token);
      return target === undefined ? sendPage(reply, 200, badUnsubscribe()) : sendPage(reply, 200, unsubscribePage(target, token));
    });
    app.post<{ Querystring: TokenQuery }>(paths.unsubscribe, async (request, reply) => {
      const target = await store.unsubscribe(tokenOf(request));
      if (target === undefined) return sendPage(reply, 200, badUnsubscribe());
      const l = T[target.language];
      return sendPage(reply, 200, {
        language: target.language,
        title: l.unsubscribedTitle,
        paragraphs: [l.unsubscribed(listTitle(target.list, target.state, target.language), displayEmail(target.email))],
        links: [
          [l.deleteLink, PAGE_PATHS.deleteRequest[target.language]],
          [l.home, home(target.language)],
        ],
      });
    });

    // Deletion request: the form, and the answer that does not say whether the address is known.
    const requestForm = (value: string, error?: string): PageContent => ({
      language,
      title: t.deleteTitle,
      paragraphs: [t.deleteIntro],
      form: { action: paths.deleteRequest, button: t.deleteButton, email: { label: t.emailLabel, value, error, hint: t.emailHint } },
      links: [[t.home, home(language)]],
    });
    app.get(paths.deleteRequest, async (_request, reply) => sendPage(reply, 200, requestForm('')));
    app.post<{ Body: Record<string, string> | undefined }>(paths.deleteRequest, async (request, reply) => {
      const raw = typeof request.body?.email === 'string' ? request.body.email.trim() : '';
      if (!isValidEmail(raw)) return sendPage(reply, 400, requestForm(raw.slice(0, 254), t.emailError));
      const email = normalizeEmail(raw);
      await store.requestDeletion(email, language);
      worker.wake(); // known or not: the same work (the worker looks after the answer is sent)
      return sendPage(reply, 200, {
        language,
        title: t.deleteSentTitle,
        paragraphs: [t.deleteSent(displayEmail(email), tokenDays)],
        links: [[t.home, home(language)]],
      });
    });

    // Deletion confirmation: the page with the button, and the POST that deletes.
    const badDelete = (): PageContent => ({
      language,
      title: t.badLinkTitle,
      paragraphs: [t.badDelete(tokenDays)],
      links: [
        [t.newDeleteLink, paths.deleteRequest],
        [t.home, home(language)],
      ],
    });
    app.get<{ Querystring: TokenQuery }>(paths.deleteConfirm, async (request, reply) => {
      const token = tokenOf(request);
      const target = store.deletionTarget(token);
      if (target === undefined) return sendPage(reply, 200, badDelete());
      const l = T[target.language];
      return sendPage(reply, 200, {
        language: target.language,
        title: l.deleteConfirmTitle,
        paragraphs: [l.deleteConfirmAsk],
        form: { action: withToken(PAGE_PATHS.deleteConfirm[target.language], token), button: l.deleteConfirmButton },
      });
    });
    app.post<{ Querystring: TokenQuery }>(paths.deleteConfirm, async (request, reply) => {
      const outcome = await store.deleteData(tokenOf(request));
      if (!outcome.ok) return sendPage(reply, 200, badDelete());
      const lang = outcome.language ?? language;
      const l = T[lang];
      return sendPage(reply, 200, { language: lang, title: l.deletedTitle, paragraphs: [l.deleted], links: [[l.home, home(lang)]] });
    });
  }
};
