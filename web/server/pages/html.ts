import type { Language } from '../http/messages.js';

/**
 * The small server-rendered pages of the mail flows (confirm, unsubscribe, delete my data):
 * one column of text and at most one form, no script (the site's CSP allows none inline),
 * labelled controls, the page's language in <html lang>, readable without any stylesheet.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface PageForm {
  /** Where the form posts (a path with its query, already escaped by this module). */
  action: string;
  button: string;
  /** An e-mail field (label, current value, error text) for the deletion request. */
  email?: { label: string; value: string; error?: string | undefined; hint: string };
  hidden?: Record<string, string>;
}

export interface PageContent {
  language: Language;
  title: string;
  paragraphs: readonly string[];
  form?: PageForm | undefined;
  /** Links under the text: [label, href]. */
  links?: ReadonlyArray<readonly [string, string]>;
}

const STYLE = `
  body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.5; margin: 0; color: #1a1a1a; background: #fafafa; }
  main { max-width: 36rem; margin: 3rem auto; padding: 1.5rem; background: #fff; border: 1px solid #ddd; border-radius: 8px; }
  h1 { font-size: 1.5rem; margin-top: 0; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  input[type=email] { width: 100%; box-sizing: border-box; padding: .5rem; font-size: 1rem; border: 1px solid #767676; border-radius: 4px; }
  button { margin-top: 1rem; padding: .6rem 1.2rem; font-size: 1rem; background: #0b5cad; color: #fff; border: 0; border-radius: 4px; cursor: pointer; }
  button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
  .hint { color: #555; font-size: .9rem; margin: .25rem 0 0; }
  .error { color: #b00020; font-weight: 600; }
  a { color: #0b5cad; }
`;

export function renderPage(content: PageContent): string {
  const { language } = content;
  const form = content.form === undefined ? '' : renderForm(content.form);
  const links =
    content.links && content.links.length > 0
      ? `<ul>${content.links.map(([label, href]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></li>`).join('')}</ul>`
      : '';
  return (
    `<!doctype html>\n<html lang="${language}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex">` +
    `<title>${escapeHtml(content.title)}</title><style>${STYLE}</style></head>` +
    `<body><main><h1>${escapeHtml(content.title)}</h1>` +
    content.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('') +
    form +
    links +
    `</main></body></html>\n`
  );
}

function renderForm(form: PageForm): string {
  const hidden = Object.entries(form.hidden ?? {})
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  let field = '';
  if (form.email) {
    const { label, value, error, hint } = form.email;
    const describedBy = error ? 'email-hint email-error' : 'email-hint';
    field =
      `<label for="email">${escapeHtml(label)}</label>` +
      `<input id="email" name="email" type="email" required autocomplete="email" value="${escapeHtml(value)}" aria-describedby="${describedBy}"${error ? ' aria-invalid="true"' : ''}>` +
      `<p class="hint" id="email-hint">${escapeHtml(hint)}</p>` +
      (error ? `<p class="error" id="email-error" role="alert">${escapeHtml(error)}</p>` : '');
  }
  return `<form method="post" action="${escapeHtml(form.action)}">${hidden}${field}<button type="submit">${escapeHtml(form.button)}</button></form>`;
}
