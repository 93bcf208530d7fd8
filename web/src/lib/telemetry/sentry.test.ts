// @vitest-environment happy-dom
/** Sentry: settings of the seeds, every filter of seed 000 §8 and seed 001 §8, and no property data. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Breadcrumb, ErrorEvent, Log } from '@sentry/react';
import {
  beforeSend,
  beforeSendLog,
  CONSOLE_LOG_LEVELS,
  filterBreadcrumb,
  initSentry,
  isStructuredDataNoise,
  keepEvent,
  keepLog,
  NO_PERSONAL_DATA,
  redactText,
  releaseOf,
  reportError,
  resetSentryForTests,
  scrubEvent,
  scrubLog,
  sentryOptions,
  tracePropagationTargets,
} from './sentry.js';

const ev = (e: Partial<ErrorEvent>): ErrorEvent => ({ type: undefined, ...e }) as ErrorEvent;
const lowerCaseFailure = { exception: { values: [{ type: 'TypeError', value: "Cannot read properties of undefined (reading 'toLowerCase')" }] } };
const matches = (targets: RegExp[], url: string) => targets.some((t) => t.test(url));

describe('settings (seed 000 §9, seed 001 §3/§9)', () => {
  const o = sentryOptions({
    dsn: 'https://k@o1.ingest.example/1',
    state: 'tx',
    host: 'tx.example.com',
    siblings: ['ny.example.com', 'ca.example.com', 'fl.example.com', 'example.com'],
  });

  it('10% of traces, every error, environment production, release from state code and host', () => {
    expect(o.tracesSampleRate).toBe(0.1);
    expect(o.sampleRate).toBe(1);
    expect(o.environment).toBe('production');
    expect(o.release).toBe('ptax-tx@tx.example.com');
    expect(releaseOf('NY', 'localhost:5173')).toBe('ptax-ny@localhost:5173');
  });

  it('tags: state, domain, component property-tax-calculator, user segment property-tax-users', () => {
    expect(o.initialScope).toEqual({
      tags: { state: 'TX', domain: 'tx.example.com', component: 'property-tax-calculator', user_segment: 'property-tax-users' },
    });
  });

  it('no personal data: every data-collection category of the SDK is off', () => {
    expect(o.dataCollection).toBe(NO_PERSONAL_DATA);
    expect(NO_PERSONAL_DATA).toMatchObject({
      userInfo: false,
      cookies: false,
      httpHeaders: false,
      httpBodies: [],
      urlQueryParams: false,
      stackFrameVariables: false,
    });
  });

  it('trace headers go to the own host and the sibling hosts only', () => {
    const t = o.tracePropagationTargets as RegExp[];
    expect(matches(t, '/api/contact')).toBe(true);
    expect(matches(t, 'https://tx.example.com/api/sites')).toBe(true);
    expect(matches(t, 'https://fl.example.com:8443/api/x')).toBe(true);
    expect(matches(t, 'https://example.com/')).toBe(true);
    expect(matches(t, 'https://evil.com/?https://tx.example.com/')).toBe(false);
    expect(matches(t, 'https://tx.example.com.evil.com/')).toBe(false);
    expect(matches(t, '//cdn.other.net/x.js')).toBe(false);
    expect(matches(t, 'https://www.googletagmanager.com/gtm.js')).toBe(false);
    expect(matches(t, 'http://localhost:3000/api')).toBe(false); // production edition: no localhost
  });

  it('in development (an edition on *.localhost) localhost and the sibling *.localhost editions get them', () => {
    const t = tracePropagationTargets('ny.localhost:8080');
    for (const u of ['http://localhost:8080/api/sites', 'http://127.0.0.1:8080/', 'http://tx.localhost:8080/x', 'http://fl.localhost/x'])
      expect(matches(t, u)).toBe(true);
    expect(matches(t, 'https://example.org/')).toBe(false);
  });
});

describe('filters of seed 000 §8 and seed 001 §8', () => {
  it('structured-data context + toLowerCase failure is dropped', () => {
    const e = ev({ ...lowerCaseFailure, contexts: { structuredData: { type: 'FAQPage' } } });
    expect(isStructuredDataNoise(e)).toBe(true);
    expect(beforeSend(e, {})).toBeNull();
  });

  it("structured-data context + 'undefined is not an object' failure is dropped", () => {
    const e = ev({
      exception: { values: [{ type: 'TypeError', value: "undefined is not an object (evaluating 'a.name')" }] },
      extra: { script: 'application/ld+json' },
    });
    expect(beforeSend(e, {})).toBeNull();
  });

  it('either part alone is kept', () => {
    expect(isStructuredDataNoise(ev(lowerCaseFailure))).toBe(false);
    expect(isStructuredDataNoise(ev({ contexts: { structuredData: {} }, exception: { values: [{ type: 'RangeError', value: 'bad' }] } }))).toBe(false);
    expect(beforeSend(ev(lowerCaseFailure), {})).not.toBeNull();
  });

  it('the failure may be only in the original exception', () => {
    expect(isStructuredDataNoise(ev({ contexts: { 'structured-data': {} } }), { originalException: new TypeError('x.toLowerCase is not a function') })).toBe(
      true,
    );
  });

  it('console breadcrumbs are dropped, others kept', () => {
    expect(filterBreadcrumb({ category: 'console', level: 'warning', message: 'hi' })).toBeNull();
    expect(filterBreadcrumb({ category: 'ui.click', message: 'button#calculate' })).toEqual({ category: 'ui.click', message: 'button#calculate' });
  });

  it('logs whose message contains password or ssn are dropped', () => {
    expect(keepLog({ level: 'error', message: 'Reset Password failed' })).toBe(false);
    expect(keepLog({ level: 'warn', message: 'SSN field empty' })).toBe(false);
    expect(keepLog({ level: 'error', message: 'Tax calculation failed' })).toBe(true);
    expect(keepLog({ level: 'info', message: 'classnames loaded' })).toBe(true); // "ssn" inside a word is not the word
  });

  it('debug and trace logs are dropped, info, warn and error kept', () => {
    expect(
      ['trace', 'debug', 'info', 'warn', 'error', 'fatal'].map((level) => keepLog({ level: level as Log['level'], message: 'Tax calculation completed' })),
    ).toEqual([false, false, true, true, true, true]);
  });

  it('the same words and levels drop events', () => {
    expect(keepEvent(ev({ message: 'password mismatch', level: 'error' }))).toBe(false);
    expect(keepEvent(ev({ message: 'x', level: 'debug' }))).toBe(false);
    expect(keepEvent(ev({ message: 'x', level: 'error' }))).toBe(true);
  });

  it('only warn and error console levels are captured as logs', () => {
    expect([...CONSOLE_LOG_LEVELS]).toEqual(['warn', 'error']);
  });
});

describe('no property data is ever attached', () => {
  it('an event loses its user, cookies, query string, request body and the extras and contexts outside short lists; amounts are redacted', () => {
    const out = scrubEvent(
      ev({
        message: 'Failed for 350,000 at $6,300.50',
        user: { ip_address: '1.2.3.4', email: 'a@b.co' },
        request: {
          url: 'https://ny.example.com/?value=350000&county=kings',
          cookies: { s: '1' },
          query_string: 'value=350000',
          data: '{"homeValue":350000}',
          headers: { 'User-Agent': 'UA', Referer: 'https://ny.example.com/?value=1' },
        },
        extra: { component: 'property-tax-calculator', homeValue: 350000, county: 'Kings', where: 'pdf' },
        contexts: { browser: { name: 'Chrome' }, calculator: { value: 350000 } },
        transaction: '/county/kings?value=1',
        exception: { values: [{ type: 'Error', value: 'Value 1250000 out of range for a@b.co' }] },
        breadcrumbs: [
          { category: 'console', message: 'value 350000' },
          { category: 'fetch', data: { url: '/api/x?email=a@b.co', method: 'POST', status_code: 400, request_body_size: 40 } },
          { category: 'navigation', data: { from: '/?v=1', to: '/es?v=2' } },
        ],
      }),
    );
    expect(out).toEqual({
      type: undefined,
      message: 'Failed for [number] at [number]',
      request: { url: 'https://ny.example.com/', headers: { 'User-Agent': 'UA' } },
      extra: { component: 'property-tax-calculator', where: 'pdf' },
      contexts: { browser: { name: 'Chrome' } },
      transaction: '/county/kings',
      exception: { values: [{ type: 'Error', value: 'Value [number] out of range for [email]' }] },
      breadcrumbs: [
        { category: 'fetch', data: { url: '/api/x', method: 'POST', status_code: 400 } },
        { category: 'navigation', data: { from: '/', to: '/es' } },
      ],
    });
  });

  it('a console log keeps its template, not its arguments (the tax-calculation entry)', () => {
    const log: Log = {
      level: 'error',
      message: 'Tax calculation failed {"county":"Kings","homeValue":350000}',
      attributes: {
        'sentry.origin': 'auto.log.console',
        'sentry.message.template': 'Tax calculation failed {}',
        'sentry.message.parameter.0': { county: 'Kings' },
        county: 'Kings',
      },
    };
    expect(scrubLog(log)).toEqual({
      level: 'error',
      message: 'Tax calculation failed {}',
      attributes: { 'sentry.origin': 'auto.log.console', 'sentry.message.template': 'Tax calculation failed {}' },
    });
    expect(beforeSendLog({ level: 'debug', message: 'x' })).toBeNull();
  });

  it('redaction leaves small numbers and rates alone', () => {
    expect(redactText('step 3 of 4 at 1.80%')).toBe('step 3 of 4 at 1.80%');
  });
});

describe('initialisation', () => {
  afterEach(() => resetSentryForTests());

  it('without a DSN the SDK is not even imported and errors go nowhere', async () => {
    const importer = vi.fn();
    expect(await initSentry({ state: 'NY', host: 'ny.example.com' }, importer)).toBeNull();
    expect(await initSentry({ state: 'NY', host: 'ny.example.com', dsn: '  ' }, importer)).toBeNull();
    expect(importer).not.toHaveBeenCalled();
    expect(() => reportError(new Error('x'))).not.toThrow();
  });

  it('with a DSN: init with the settings, the two integrations, and errors reported while loading are sent after', async () => {
    const init = vi.fn();
    const captureException = vi.fn();
    const fake = {
      init,
      captureException,
      browserTracingIntegration: () => ({ name: 'BrowserTracing' }),
      consoleLoggingIntegration: (o: unknown) => ({ name: 'ConsoleLogs', o }),
    };
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const p = initSentry({ dsn: 'https://k@o1.ingest.example/1', state: 'FL', host: 'fl.example.com' }, async () => {
      await gate;
      return fake as never;
    });
    const early = new Error('early');
    reportError(early, { where: 'state data' });
    release();
    await p;
    const opts = init.mock.calls[0]![0];
    expect(opts).toMatchObject({ dsn: 'https://k@o1.ingest.example/1', release: 'ptax-fl@fl.example.com', tracesSampleRate: 0.1, sampleRate: 1 });
    expect(opts.integrations).toEqual([{ name: 'BrowserTracing' }, { name: 'ConsoleLogs', o: { levels: ['warn', 'error'] } }]);
    expect(captureException.mock.calls).toEqual([[early, { extra: { where: 'state data' } }]]);
  });

  it('the real SDK sends a scrubbed event (no property figure in the envelope)', async () => {
    const bodies: string[] = [];
    const real = await import('@sentry/react');
    const S = {
      ...real,
      init: (o: Parameters<typeof real.init>[0]) =>
        real.init({
          ...o,
          integrations: [],
          defaultIntegrations: false,
          transport: (to) =>
            real.createTransport(to, async (req) => {
              bodies.push(typeof req.body === 'string' ? req.body : new TextDecoder().decode(req.body));
              return { statusCode: 200 };
            }),
        }),
    };
    await initSentry({ dsn: 'https://k@o1.ingest.example/1', state: 'NY', host: 'ny.example.com' }, async () => S as never);
    reportError(new Error('Calculation failed for 425000'), { component: 'property-tax-calculator', homeValue: 425000, county: 'Kings' });
    await real.flush(2000);
    await real.close();
    const envelope = bodies.join('\n');
    expect(envelope).toContain('Calculation failed for [number]');
    expect(envelope).toContain('"component":"property-tax-calculator"');
    expect(envelope).toContain('"user_segment":"property-tax-users"');
    expect(envelope).not.toContain('425000');
    expect(envelope).not.toContain('Kings');
  });
});

describe('breadcrumb type check', () => {
  it('a breadcrumb without data stays as is', () => {
    const b: Breadcrumb = { category: 'ui.click', message: 'a.nav' };
    expect(filterBreadcrumb(b)).toEqual(b);
  });
});
