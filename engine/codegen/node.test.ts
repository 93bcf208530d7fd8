/**
 * Where Node finds the generated programs (engine/codegen/node.ts): beside the compiled
 * engine's rules/bundle.json, whatever the build folder is called, or under dist/ from the
 * sources. A build copied to a folder not named `dist` used to find none and run every row
 * in the interpreter without a word.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GENERATED_DIR, generatedDir } from './node.js';

const tmp = mkdtempSync(join(tmpdir(), 'ptax-generated-dir-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('generatedDir', () => {
  it('a compiled engine in a folder of any name: its own rules/js', () => {
    const build = join(tmp, 'build-copy');
    mkdirSync(join(build, 'engine', 'codegen'), { recursive: true });
    mkdirSync(join(build, 'rules'), { recursive: true });
    writeFileSync(join(build, 'rules', 'bundle.json'), '{}');
    expect(generatedDir(join(build, 'engine', 'codegen'))).toBe(join(build, 'rules', 'js'));
  });

  it('the sources (no rules/bundle.json two folders up): the build under dist/', () => {
    const repo = join(tmp, 'repo');
    mkdirSync(join(repo, 'engine', 'codegen'), { recursive: true });
    mkdirSync(join(repo, 'rules', 'ny'), { recursive: true });
    expect(generatedDir(join(repo, 'engine', 'codegen'))).toBe(join(repo, 'dist', 'rules', 'js'));
    // This test runs from the sources: the repository's own build.
    expect(GENERATED_DIR).toBe(join(process.cwd(), 'dist', 'rules', 'js'));
  });
});
