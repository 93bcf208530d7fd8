// @vitest-environment happy-dom
/** Uncaught errors (seed 001 §8): third-party errors ignored; others reported as non-fatal, default handling suppressed. */
import { describe, expect, it, vi } from 'vitest';
import { describeError, installErrorHandlers, isThirdPartyError } from './errors.js';

describe('third-party errors', () => {
  it.each(['ReferenceError: gtag is not defined', "ReferenceError: Can't find variable: fbq", 'TypeError: ga is not a function', 'Script error.'])(
    '%s is ignored',
    (m) => expect(isThirdPartyError(m)).toBe(true),
  );

  it('an error thrown from a tag-manager script is ignored by its source', () => {
    expect(isThirdPartyError('TypeError: x is null', 'https://www.googletagmanager.com/gtm.js?id=GTM-1')).toBe(true);
  });

  it("the product's own errors are not", () => {
    expect(isThirdPartyError("TypeError: Cannot read properties of undefined (reading 'rate')", 'https://ny.example.com/assets/index.js')).toBe(false);
  });
});

describe('global handlers', () => {
  it('an uncaught error is reported non-fatal and its default handling suppressed when reported', () => {
    const report = vi.fn(() => true);
    const off = installErrorHandlers(window, report);
    const ev = new ErrorEvent('error', { message: 'boom', error: new RangeError('boom'), cancelable: true });
    window.dispatchEvent(ev);
    off();
    expect(report.mock.calls).toEqual([[{ description: 'RangeError: boom', fatal: false }]]);
    expect(ev.defaultPrevented).toBe(true);
  });

  it('not suppressed when the report was refused (no consent), and a third-party error is not reported', () => {
    const report = vi.fn(() => false);
    const off = installErrorHandlers(window, report);
    const ev = new ErrorEvent('error', { message: 'boom', error: new Error('boom'), cancelable: true });
    window.dispatchEvent(ev);
    const third = new ErrorEvent('error', { message: 'ReferenceError: gtag is not defined', cancelable: true });
    window.dispatchEvent(third);
    off();
    expect(ev.defaultPrevented).toBe(false);
    expect(report).toHaveBeenCalledTimes(1);
  });

  it('an unhandled rejection is reported non-fatal', () => {
    const report = vi.fn(() => true);
    const off = installErrorHandlers(window, report);
    const ev = new Event('unhandledrejection', { cancelable: true }) as PromiseRejectionEvent;
    Object.defineProperty(ev, 'reason', { value: new TypeError('bad data') });
    window.dispatchEvent(ev);
    off();
    expect(report.mock.calls).toEqual([[{ description: 'TypeError: bad data', fatal: false }]]);
    expect(ev.defaultPrevented).toBe(true);
  });

  it('descriptions are cut to 150 characters', () => {
    expect(describeError('x'.repeat(400))).toHaveLength(150);
  });
});
