/**
 * cli/sha256.ts, which the CLI's bundle uses in place of node:crypto (issue 23: start-up),
 * gives node:crypto's SHA-256 digests: the standard's test vectors, and random texts whose
 * lengths cross the 55/56/64-byte padding edges and several blocks, in UTF-8.
 */
import { createHash as nodeHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHash } from './sha256.js';

const ours = (s: string) => createHash('sha256').update(s).digest('hex');

describe('sha256', () => {
  it('the FIPS 180-2 examples', () => {
    expect(ours('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(ours('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(ours('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it('node:crypto digests for texts of every length around the block edges, and long UTF-8 texts', () => {
    for (let n = 0; n <= 130; n++) expect(ours('x'.repeat(n)), `length ${n}`).toBe(nodeHash('sha256').update('x'.repeat(n)).digest('hex'));
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 3000 }), (s) => {
        expect(ours(s)).toBe(nodeHash('sha256').update(s).digest('hex'));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses what it does not do, rather than giving a wrong digest', () => {
    expect(() => createHash('md5')).toThrow(/only sha256/);
    expect(() => createHash('sha256').update('x').digest('base64')).toThrow(/only hex/);
  });
});
