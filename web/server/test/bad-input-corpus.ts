import { PATHS, VALID, type RawRequest } from './helpers.js';

/**
 * A corpus of malformed requests, generated here rather than kept as a data file so that each
 * case says what it probes. Every one must be answered 4xx with the JSON error shape, and none
 * may store anything.
 */
export interface BadInput {
  name: string;
  request: RawRequest;
}

type Route = keyof typeof PATHS;
const ROUTES: readonly Route[] = ['subscribe', 'notify', 'contact'];

/** A valid payload per route, that each case breaks in one way. */
const VALID_BY_ROUTE: Readonly<Record<Route, Readonly<Record<string, unknown>>>> = {
  subscribe: VALID.popup,
  notify: VALID.notify,
  contact: VALID.contact,
};

/** contentType null sends no Content-Type header at all. */
function post(route: Route, body: string | Buffer, contentType: string | null = 'application/json'): RawRequest {
  return { method: 'POST', path: PATHS[route], headers: contentType === null ? {} : { 'content-type': contentType }, body };
}

function postValue(route: Route, value: unknown): RawRequest {
  return post(route, JSON.stringify(value));
}

/** Each route's valid payload with one field replaced (or removed, for undefined). */
function withField(route: Route, field: string, value: unknown): RawRequest {
  const payload: Record<string, unknown> = { ...VALID_BY_ROUTE[route] };
  if (value === undefined) delete payload[field];
  else payload[field] = value;
  return postValue(route, payload);
}

function forEachRoute(prefix: string, make: (route: Route) => RawRequest): BadInput[] {
  return ROUTES.map((route) => ({ name: `${prefix} -> ${route}`, request: make(route) }));
}

function brokenJson(): BadInput[] {
  const bodies: Array<[string, string | Buffer]> = [
    ['empty body', ''],
    ['lone brace', '{'],
    ['closing brace', '}'],
    ['truncated value', '{"email":'],
    ['truncated string', '{"email":"ann@example.com'],
    ['trailing comma', '{"email":"ann@example.com",}'],
    ['single quotes', "{'email':'ann@example.com'}"],
    ['unquoted keys', '{email:"ann@example.com"}'],
    ['bare word', 'nul'],
    ['undefined', 'undefined'],
    ['NaN', '{"calculatedTax":NaN}'],
    ['two documents', '{"email":"ann@example.com","state":"NY"}{"x":1}'],
    ['trailing garbage', '{"email":"ann@example.com"} x'],
    ['invalid escape', '{"email":"\\x41nn@example.com"}'],
    ['leading zero number', '{"calculatedTax":01}'],
    ['NUL byte', '\u0000'],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
    ['UTF-16 body', Buffer.from('{"email":"ann@example.com","state":"NY"}', 'utf16le')],
  ];
  return bodies.flatMap(([name, body]) => forEachRoute(`broken JSON: ${name}`, (route) => post(route, body)));
}

function notAnObject(): BadInput[] {
  const bodies = ['[]', '"ann@example.com"', '123', 'null', 'true', '{}'];
  return [
    ...bodies.flatMap((body) => forEachRoute(`not an object: ${body}`, (route) => post(route, body))),
    ...forEachRoute('array of a valid payload', (route) => postValue(route, [VALID_BY_ROUTE[route]])),
  ];
}

function wrongTypes(): BadInput[] {
  const notStrings: unknown[] = [123, true, null, [], {}, ['x']];
  const stringFields: Record<Route, string[]> = {
    subscribe: ['email', 'state', 'language', 'firstName', 'county'],
    notify: ['email', 'state', 'language'],
    contact: ['name', 'email', 'subject', 'message', 'state', 'language'],
  };
  const cases: BadInput[] = [];
  for (const route of ROUTES) {
    for (const field of stringFields[route]) {
      for (const value of notStrings) {
        cases.push({ name: `${route}.${field} = ${JSON.stringify(value)}`, request: withField(route, field, value) });
      }
    }
  }
  for (const value of ['ny-calculator', 5, null, {}, [1], [null], [['ny-calculator']], [{}]]) {
    cases.push({ name: `subscribe.tags = ${JSON.stringify(value)}`, request: withField('subscribe', 'tags', value) });
  }
  for (const value of ['4321', true, null, [], {}, -0.01, 1e12]) {
    cases.push({ name: `subscribe.calculatedTax = ${JSON.stringify(value)}`, request: withField('subscribe', 'calculatedTax', value) });
  }
  return cases;
}

function hugeStrings(): BadInput[] {
  return [
    { name: 'email of 10,000 characters', request: withField('subscribe', 'email', `${'a'.repeat(10_000)}@example.com`) },
    { name: 'email of 20 KB (over the body limit)', request: withField('notify', 'email', `${'a'.repeat(20_000)}@example.com`) },
    { name: 'local part of 65 characters', request: withField('notify', 'email', `${'a'.repeat(65)}@example.com`) },
    { name: 'domain label of 64 characters', request: withField('notify', 'email', `ann@${'a'.repeat(64)}.com`) },
    { name: 'email of 255 characters', request: withField('notify', 'email', `ann@${'a.'.repeat(124)}com`) },
    { name: 'first name of 101 characters', request: withField('subscribe', 'firstName', 'A'.repeat(101)) },
    { name: 'first name of 12,000 characters', request: withField('subscribe', 'firstName', 'A'.repeat(12_000)) },
    { name: 'county of 101 characters', request: withField('subscribe', 'county', 'K'.repeat(101)) },
    {
      name: '11 tags',
      request: withField(
        'subscribe',
        'tags',
        Array.from({ length: 11 }, (_, i) => `county-${'k'.repeat(i + 1)}`),
      ),
    },
    { name: 'tag of 65 characters', request: withField('subscribe', 'tags', [`county-${'k'.repeat(58)}`]) },
    { name: 'contact name of 101 characters', request: withField('contact', 'name', 'N'.repeat(101)) },
    { name: 'subject of 151 characters', request: withField('contact', 'subject', 'S'.repeat(151)) },
    { name: 'message of 4,001 characters', request: withField('contact', 'message', 'M'.repeat(4001)) },
    {
      // 1,500 code points, within the length limit, but 18 KB of JSON escapes.
      name: 'message of 1,500 escaped emoji (over 16 KB)',
      request: post('contact', JSON.stringify({ ...VALID.contact, message: 'MSG' }).replace('MSG', '\\ud83d\\ude00'.repeat(1500))),
    },
    { name: 'body of 1 MB', request: withField('contact', 'message', 'M'.repeat(1024 * 1024)) },
  ];
}

function unicodeTricks(): BadInput[] {
  const emails: Array<[string, string]> = [
    ['Cyrillic a in local part', '\u0430nn@example.com'],
    ['Cyrillic a in domain', 'ann@ex\u0430mple.com'],
    ['Greek omicron in TLD', 'ann@example.c\u03bfm'],
    ['right-to-left override', 'ann\u202E@example.com'],
    ['trailing RTL override', 'ann@example.com\u202E'],
    ['zero-width space', 'an\u200Bn@example.com'],
    ['zero-width joiner', 'ann@exam\u200Dple.com'],
    ['zero-width non-joiner', 'ann@\u200Cexample.com'],
    ['byte order mark', '\uFEFFann@example.com'],
    ['soft hyphen', 'an\u00ADn@example.com'],
    ['NUL inside', 'ann\u0000@example.com'],
    ['NUL at end', 'ann@example.com\u0000'],
    ['full-width at sign', 'ann\uFF20example.com'],
    ['internationalised domain mixing Latin and Cyrillic', 'ann@b\u00fcch\u0435r.de'],
    ['emoji', 'ann\u{1F600}@example.com'],
    ['lone surrogate', 'ann\uD800@example.com'],
    ['combining accent', 'a\u0301nn@example.com'],
    ['line separator', 'ann@example.com\u2028'],
    ['no-break space', 'ann\u00A0@example.com'],
    ['tab', 'ann@example.com\t'],
    ['trailing space', 'ann@example.com '],
  ];
  const textFields: Array<[Route, string, string]> = [
    ['subscribe', 'firstName', 'A\u202Enn'],
    ['subscribe', 'firstName', '\u200B'],
    ['subscribe', 'county', 'Ki\u0000ngs'],
    ['contact', 'name', 'Eve\uFEFF'],
    ['contact', 'subject', 'Invoice \u202Efdp.exe'],
    ['contact', 'message', 'hello \u0000 world'],
    ['contact', 'message', 'lone \uDC00 surrogate'],
  ];
  return [
    ...emails.flatMap(([name, email]) => forEachRoute(`email with ${name}`, (route) => withField(route, 'email', email))),
    ...textFields.map(([route, field, value]) => ({ name: `${route}.${field} with ${JSON.stringify(value)}`, request: withField(route, field, value) })),
  ];
}

function headerInjection(): BadInput[] {
  const emails = [
    'ann@example.com\r\nBcc: victim@example.org',
    'ann@example.com\nBcc: victim@example.org',
    'ann@example.com\rBcc: victim@example.org',
    'ann@example.com\r\n\r\nInjected body',
    'ann@example.com%0d%0abcc:victim@example.org',
    'ann@example.com\u0085Bcc: victim@example.org',
  ];
  return [
    ...emails.flatMap((email) => forEachRoute(`CRLF email ${JSON.stringify(email)}`, (route) => withField(route, 'email', email))),
    { name: 'CRLF subject', request: withField('contact', 'subject', 'Hello\r\nBcc: victim@example.org') },
    { name: 'LF subject', request: withField('contact', 'subject', 'Hello\nX-Injected: 1') },
    { name: 'CRLF contact name', request: withField('contact', 'name', 'Eve\r\nX-Injected: 1') },
    { name: 'CRLF first name', request: withField('subscribe', 'firstName', 'Eve\r\nBcc: victim@example.org') },
    { name: 'CRLF county', request: withField('subscribe', 'county', 'Kings\r\nX: y') },
    { name: 'NEL in subject', request: withField('contact', 'subject', 'Hello\u0085Bcc: x') },
  ];
}

function missingOrEmpty(): BadInput[] {
  const required: Record<Route, string[]> = {
    subscribe: ['email', 'state', 'firstName'],
    notify: ['email'],
    contact: ['name', 'email', 'subject', 'message'],
  };
  const cases: BadInput[] = [];
  for (const route of ROUTES) {
    for (const field of required[route]) {
      cases.push({ name: `${route} without ${field}`, request: withField(route, field, undefined) });
      cases.push({ name: `${route} with empty ${field}`, request: withField(route, field, '') });
      cases.push({ name: `${route} with blank ${field}`, request: withField(route, field, '   ') });
    }
  }
  cases.push({
    name: 'popup (calculatedTax) without first name',
    request: postValue('subscribe', { email: 'ann@example.com', state: 'NY', calculatedTax: 100 }),
  });
  cases.push({ name: 'popup (county) without first name', request: postValue('subscribe', { email: 'ann@example.com', state: 'NY', county: 'Kings' }) });
  return cases;
}

function extraFields(): BadInput[] {
  const extras: Array<[string, unknown]> = [
    ['admin', true],
    ['id', 1],
    ['status', 'confirmed'],
    ['confirm_token', 'abc'],
    ['EMAIL', 'ann@example.com'],
    ['email ', 'ann@example.com'],
    ['', 'empty key'],
    ['meta', { source: 'x' }],
    ['hasOwnProperty', 1],
    ['toString', 'x'],
  ];
  return extras.flatMap(([key, value]) =>
    forEachRoute(`extra field ${JSON.stringify(key)}`, (route) => postValue(route, { ...VALID_BY_ROUTE[route], [key]: value })),
  );
}

function wrongContentTypes(): BadInput[] {
  const types: Array<string | null> = [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=xyz',
    'application/xml',
    'text/json',
    'application/javascript',
    'application/json-patch+json',
    'json',
    null,
  ];
  return [
    ...types.flatMap((type) => forEachRoute(`content type ${type ?? '(none)'}`, (route) => post(route, JSON.stringify(VALID_BY_ROUTE[route]), type))),
    ...forEachRoute('no body and no content type', (route) => ({ method: 'POST', path: PATHS[route] })),
  ];
}

function deepNesting(): BadInput[] {
  const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  return [
    ...forEachRoute('array nested 5,000 deep', (route) => post(route, deepArray(5000))),
    ...forEachRoute('object nested 2,000 deep', (route) => post(route, deepObject(2000))),
    { name: 'email as a deep object', request: post('notify', `{"email":${deepObject(1000)}}`) },
    { name: 'tags nested 3,000 deep', request: post('subscribe', `{"email":"ann@example.com","state":"NY","tags":${deepArray(3000)}}`) },
    { name: 'nested 30,000 deep (over the body limit)', request: post('notify', deepArray(30_000)) },
  ];
}

function prototypePollution(): BadInput[] {
  const valid = (route: Route) => JSON.stringify(VALID_BY_ROUTE[route]).slice(1, -1);
  const bodies: Array<[string, (route: Route) => string]> = [
    ['__proto__ object', (route) => `{"__proto__":{"admin":true},${valid(route)}}`],
    ['__proto__ null', (route) => `{${valid(route)},"__proto__":null}`],
    ['constructor.prototype', (route) => `{"constructor":{"prototype":{"admin":true}},${valid(route)}}`],
    ['constructor alone', (route) => `{"constructor":{"name":"x"},${valid(route)}}`],
    ['prototype key', (route) => `{"prototype":{"admin":true},${valid(route)}}`],
    ['nested __proto__', (route) => `{${valid(route)},"x":{"__proto__":{"admin":true}}}`],
    ['escaped __proto__', (route) => `{"\\u005f_proto__":{"admin":true},${valid(route)}}`],
  ];
  return bodies.flatMap(([name, body]) => forEachRoute(`prototype pollution: ${name}`, (route) => post(route, body(route))));
}

function invalidValues(): BadInput[] {
  const emails = [
    'plainaddress',
    '@example.com',
    'ann@',
    'ann@example',
    'ann..lee@example.com',
    '.ann@example.com',
    'ann.@example.com',
    'ann@-example.com',
    'ann@example-.com',
    'ann@example..com',
    'ann lee@example.com',
    '"ann"@example.com',
    'ann@[127.0.0.1]',
    'ann@example.c',
    'ann@example.123',
    'ann@@example.com',
    'ann@exa_mple.com',
    '<ann@example.com>',
    'Ann <ann@example.com>',
    'ann@example.com,bob@example.com',
  ];
  return [
    ...emails.map((email) => ({ name: `email ${JSON.stringify(email)}`, request: withField('notify', 'email', email) })),
    ...['New York', 'ZZ', 'Ny', 'N Y', 'US-NY', ''].map((state) => ({
      name: `state ${JSON.stringify(state)}`,
      request: withField('subscribe', 'state', state),
    })),
    ...['fr', 'EN', 'en-US', 'spanish', ''].map((language) => ({
      name: `language ${JSON.stringify(language)}`,
      request: withField('contact', 'language', language),
    })),
    ...[
      ['tx-newsletter'],
      ['NY-newsletter'],
      ['county-'],
      ['county-Kings'],
      ['county-kings--x'],
      ['county-k1ngs'],
      ['county-kings-'],
      ['<script>'],
      ['property_tax_updates'],
      ['ny-newsletter', 'vip'],
    ].map((tags) => ({ name: `tags ${JSON.stringify(tags)}`, request: withField('subscribe', 'tags', tags) })),
    { name: 'first name without letters', request: withField('subscribe', 'firstName', '12345') },
    { name: 'message only whitespace', request: withField('contact', 'message', ' \n\t ') },
  ];
}

function wrongMethodsAndPaths(): BadInput[] {
  return [
    ...['GET', 'PUT', 'DELETE', 'PATCH'].map((method) => ({ name: `${method} on subscribe`, request: { method, path: PATHS.subscribe } })),
    { name: 'POST to /api/newsletter', request: { ...postValue('subscribe', VALID.banner), path: '/api/newsletter' } },
    { name: 'POST with trailing slash', request: { ...postValue('subscribe', VALID.banner), path: `${PATHS.subscribe}/` } },
    { name: 'POST to /API/notify', request: { ...postValue('notify', VALID.notify), path: '/API/notify' } },
    { name: 'POST to /', request: { ...postValue('notify', VALID.notify), path: '/' } },
    { name: 'undecodable URL', request: { ...postValue('notify', VALID.notify), path: '/api/%ff' } },
  ];
}

export function badInputCorpus(): BadInput[] {
  return [
    ...brokenJson(),
    ...notAnObject(),
    ...wrongTypes(),
    ...hugeStrings(),
    ...unicodeTricks(),
    ...headerInjection(),
    ...missingOrEmpty(),
    ...extraFields(),
    ...wrongContentTypes(),
    ...deepNesting(),
    ...prototypePollution(),
    ...invalidValues(),
    ...wrongMethodsAndPaths(),
  ];
}
