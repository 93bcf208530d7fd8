import { fstatSync, statSync, writeSync } from 'node:fs';
import { DECIMALS, roundTo, roundedUnits } from '../core/round.js';
import type { ResultUnit } from '../core/types.js';
/**
 * Batch output as bytes: rows are written straight into a Buffer (numbers digit by
 * digit, text as UTF-8), so a million rows make no million strings to build, join and
 * encode again. Full buffers are handed to the stream as they are (`take`).
 */

const CAP = 1 << 20;

/**
 * Standard output's descriptor (1) when it is a file or /dev/null: written synchronously
 * there (`CsvOut.writeTo`); undefined for a pipe, a socket, a terminal or another device,
 * which are written as streams. (/dev/null is told by its device number: node:tty's
 * isatty would load the terminal and network modules, ~10 ms, for every batch.)
 */
export function syncOutput(): number | undefined {
  try {
    const s = fstatSync(1);
    return s.isFile() || (s.isCharacterDevice() && s.rdev === statSync('/dev/null').rdev) ? 1 : undefined;
  } catch {
    return undefined;
  }
}

export class CsvOut {
  buf: Buffer = Buffer.allocUnsafe(CAP);
  pos = 0;
  private full: Buffer[] = [];
  private readonly digits = new Uint8Array(24);
  /** The allocation `buf` is a view of; the earlier ones, whose pieces `take` has given since the last `reuse`; allocations to use again. */
  private base: Buffer = this.buf;
  private given: Buffer[] = [];
  private spare: Buffer[] = [];
  /** Whether `reuse` is called (until it is, no allocation is held for it). */
  private reusing = false;

  /** Room for `n` more bytes; a full buffer is set aside for `take`. Call at a row's start only. */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    if (this.pos) this.full.push(this.buf.subarray(0, this.pos));
    this.next(n);
  }

  /** A new allocation to write into (one set aside by `reuse`, when there is one and `n` fits). */
  private next(n: number): void {
    // (At most eight remembered: a caller that seldom calls `reuse` leaves the others to the collector.)
    if (this.reusing && this.given.length < 8) this.given.push(this.base);
    this.buf = this.base = n <= CAP && this.spare.length ? this.spare.pop()! : Buffer.allocUnsafe(Math.max(CAP, n));
    this.pos = 0;
  }

  /** Every byte written so far, as buffers for the stream (which keeps them, unless `reuse` is called). */
  take(): Buffer[] {
    if (this.pos) {
      this.full.push(this.buf.subarray(0, this.pos));
      this.buf = this.buf.subarray(this.pos);
      this.pos = 0;
    }
    if (this.buf.length < 1 << 16) this.next(0);
    const out = this.full;
    this.full = [];
    return out;
  }

  /**
   * Right after `take`, when the caller has written its pieces and kept none (a synchronous
   * write to a file): their memory is written again. A run then touches the same few
   * megabytes instead of new ones (a million rows print some 430 MB: new memory costs the
   * kernel's page faults and the garbage collector's work on each megabyte).
   */
  reuse(): void {
    this.reusing = true;
    if (this.full.length || this.pos) return;
    for (const b of this.given) if (b !== this.base && b.length === CAP && this.spare.length < 4) this.spare.push(b);
    this.given = [];
    this.buf = this.base;
  }

  /**
   * Everything written so far, written to a file descriptor synchronously (a file, or a
   * device such as /dev/null: `syncOutput`), then its memory written again (`reuse`).
   * Throws the write's error.
   */
  writeTo(fd: number): void {
    for (const b of this.take()) for (let at = 0; at < b.length;) at += writeSync(fd, b, at);
    this.reuse();
  }

  get pending(): number {
    let n = this.pos;
    for (const b of this.full) n += b.length;
    return n;
  }

  byte(c: number): void {
    this.buf[this.pos++] = c;
  }

  /** Text as UTF-8. The caller ensured room for 3 bytes a character. */
  str(s: string): void {
    if (s.length) this.pos += this.buf.write(s, this.pos, 'utf8');
  }

  /** A CSV field (`csvEscape`). */
  field(s: string): void {
    this.str(csvEscape(s));
  }

  /** Bytes as they are (a cached, already encoded piece of text). */
  bytes(b: Buffer): void {
    const n = b.length;
    if (n > 64) {
      this.buf.set(b, this.pos);
      this.pos += n;
      return;
    }
    // A short piece (a place's prefix, a notes cell) byte by byte: cheaper than set's call.
    const o = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) o[p++] = b[i]!;
    this.pos = p;
  }

  /** Bytes [s, e) of another buffer, as they are. */
  range(src: Buffer, s: number, e: number): void {
    if (e - s > 24) {
      this.pos += src.copy(this.buf, this.pos, s, e);
      return;
    }
    const o = this.buf;
    let p = this.pos;
    for (let i = s; i < e; i++) o[p++] = src[i]!;
    this.pos = p;
  }

  /** A non-negative whole number below 2^53. */
  uint(n: number): void {
    if (n < 0x7fffffff) {
      // Written from the end, two digits at a time (PAIRS: "00".."99").
      let m = n | 0;
      const b = this.buf;
      const p0 = this.pos;
      let p = p0 + digitsOf(m);
      this.pos = p;
      while (m >= 100) {
        const q = (m / 100) | 0;
        const r = (m - q * 100) << 1;
        b[--p] = PAIRS[r + 1]!;
        b[--p] = PAIRS[r]!;
        m = q;
      }
      // The digits are written right to left; the last decrement is not read again (ESLint 10's no-useless-assignment).
      if (m >= 10) {
        b[--p] = PAIRS[(m << 1) + 1]!;
        // eslint-disable-next-line no-useless-assignment
        b[--p] = PAIRS[m << 1]!;
        // eslint-disable-next-line no-useless-assignment
      } else b[--p] = 48 + m;
      return;
    }
    const d = this.digits;
    let k = 0;
    do {
      const q = Math.floor(n / 10);
      d[k++] = 48 + (n - q * 10);
      n = q;
    } while (n > 0);
    const b = this.buf;
    let p = this.pos;
    while (k > 0) b[p++] = d[--k]!;
    this.pos = p;
  }

  /**
   * `roundTo(x, d)` (d ≤ 8) as `String` prints it, in one go: the rounded whole units of
   * 10^-d are printed as they are (integer printing is much cheaper than shortest-double
   * printing), with no division back to a fraction. `fallback(roundTo(x, d))` for NaN,
   * infinities, amounts whose units reach 9e14, and what `String` prints with an exponent.
   */
  rounded(x: number, d: number, fallback: (x: number) => string): void {
    const f = POW10[d]!;
    const n = roundedUnits(x, f);
    if (!(n < 9e14) || (n !== 0 && n < f / 1e6)) {
      this.str(fallback(roundTo(x, d)));
      return;
    }
    if (x < 0 && n !== 0) this.byte(45);
    this.units(n, f, d);
  }

  /**
   * A result leaf (already rounded by the result, compile.ts) as its CSV cell, printed as
   * JSON prints it: text as a field, a count as String prints it, an amount or rate by
   * `rounded` (rounding it again changes nothing; integers print far faster than doubles);
   * null, undefined and what JSON prints as null (NaN, infinities): an empty cell.
   */
  cell(x: unknown, unit: ResultUnit): void {
    if (x === null || x === undefined) return;
    if (unit === 'text') {
      this.field(String(x));
      return;
    }
    if (typeof x !== 'number') {
      this.field(String(x));
      return;
    }
    if (unit === 'count') {
      this.str(num(x));
      return;
    }
    this.rounded(x, DECIMALS[unit], num);
  }

  /** A number rounded to `d` decimals, as `cell` prints an amount or rate (what JSON prints as null: nothing). */
  amount(x: number, d: number): void {
    if (x === 0) {
      this.buf[this.pos++] = 48; // 0 and −0 print as 0, as `rounded` prints them
      return;
    }
    if (d !== 2) {
      this.rounded(x, d, num);
      return;
    }
    // Cents, the commonest cell, as `rounded` prints them with fewer steps: whole cents
    // never print with an exponent, and the fraction is one or two digits.
    const n = roundedUnits(x, 100);
    if (!(n < 9e14)) {
      this.str(num(roundTo(x, 2)));
      return;
    }
    if (x < 0 && n !== 0) this.buf[this.pos++] = 45;
    const whole = Math.floor(n / 100);
    this.uint(whole);
    const cents = n - whole * 100;
    if (cents === 0) return;
    const b = this.buf;
    b[this.pos++] = 46;
    const tens = (cents / 10) | 0;
    b[this.pos++] = 48 + tens;
    if (cents !== tens * 10) b[this.pos++] = 48 + cents - tens * 10;
  }

  /** A whole number n (below 9e14) of units of 1/f = 10^-d, as a decimal: 923164, 100, 2 → 9231.64. */
  private units(n: number, f: number, d: number): void {
    const whole = Math.floor(n / f);
    this.uint(whole);
    // The fraction (below 10^8: 32-bit arithmetic), without its trailing zeros, with its leading ones.
    let frac = (n - whole * f) | 0;
    if (frac === 0) return;
    let digits = d;
    for (let q = (frac / 10) | 0; frac === q * 10; q = (frac / 10) | 0) {
      frac = q;
      digits--;
    }
    this.byte(46);
    const b = this.buf;
    let p = this.pos + digits;
    this.pos = p;
    for (let z = digits; z > 0; z--) {
      const q = (frac / 10) | 0;
      b[--p] = 48 + frac - q * 10;
      frac = q;
    }
  }
}

/** A number as JSON prints it; what JSON prints as null (NaN, infinities) is an empty cell. */
const num = (x: number): string => (Number.isFinite(x) ? String(x) : '');

const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8];
/** "00", "01", …, "99" as ASCII bytes, two per number. */
const PAIRS = Uint8Array.from({ length: 200 }, (_, i) => 48 + (i & 1 ? (i >> 1) % 10 : Math.floor((i >> 1) / 10)));
/** How many decimal digits a whole number below 2^31 has. */
function digitsOf(m: number): number {
  return m < 10 ? 1 : m < 100 ? 2 : m < 1e3 ? 3 : m < 1e4 ? 4 : m < 1e5 ? 5 : m < 1e6 ? 6 : m < 1e7 ? 7 : m < 1e8 ? 8 : m < 1e9 ? 9 : 10;
}

/** A CSV field, quoted when it holds a comma, quote or line break. */
export function csvEscape(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (ch === 44 || ch === 34 || ch === 10 || ch === 13) return `"${s.replace(/"/g, '""')}"`;
  }
  return s;
}
