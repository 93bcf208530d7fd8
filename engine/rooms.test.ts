/**
 * The engine's rooms (ARCHITECTURE.md): engine/core runs in browsers, so it imports no Node
 * API and nothing from the build, batch, SQL or code-generation rooms (type-only imports of
 * the generated programs' shape excepted); code outside engine/ imports the engine through
 * its two entries only.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const files = (dir: string, re: RegExp): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return n === 'node_modules' || n === 'generated' || n === 'dist' ? [] : files(p, re);
    return re.test(n) ? [p] : [];
  });
const imports = (file: string) =>
  [
    // Static imports (and re-exports) at the start of a line; dynamic imports anywhere.
    ...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?from\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/gm),
  ].map((m) => ({
    spec: (m[2] ?? m[3])!,
    typeOnly: !!m[1],
  }));

describe('engine rooms', () => {
  it("engine/core imports no Node API and no other room (but the generated programs' types and the generated declarations)", () => {
    const bad: string[] = [];
    for (const f of files('engine/core', /\.ts$/).filter((f) => !f.endsWith('.test.ts'))) {
      for (const i of imports(f)) {
        if (i.spec.startsWith('node:')) bad.push(`${f}: ${i.spec}`);
        if (/^\.\.\/(build|batch|sql)\//.test(i.spec)) bad.push(`${f}: ${i.spec}`);
        if (i.spec.startsWith('../codegen/') && !i.typeOnly) bad.push(`${f}: ${i.spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('the web imports the engine through engine/index.ts; the CLI, server and scripts through engine/node.ts', () => {
    const bad: string[] = [];
    // A deliberate exception:
    // the value field's reader (web/src/lib/parseValue.ts) imports the one reading of money
    //   (engine/core/cells.ts) itself, so that the hub's first load does not bring the engine's
    //   chunk (issue 26; web/vite.config.ts, group `fields`).
    //   Likewise the site's number formats (web/src/lib/format.ts, the county list's rates on
    //   the first render) take their digits from engine/core/number-text.ts (issue 28).
    const EXCEPT = new Map([
      ['web/src/lib/parseValue.ts', '../../../engine/core/cells.js'],
      ['web/src/lib/format.ts', '../../../engine/core/number-text.js'],
    ]);
    const excepted = (f: string, spec: string) => EXCEPT.get(f.split('\\').join('/')) === spec;
    for (const f of files('web/src', /\.tsx?$/)) {
      for (const i of imports(f)) if (/engine\//.test(i.spec) && !/engine\/index\.js$/.test(i.spec) && !excepted(f, i.spec)) bad.push(`${f}: ${i.spec}`);
    }
    for (const f of [...files('cli', /\.ts$/), ...files('web/server', /\.ts$/), ...files('scripts', /\.ts$/)]) {
      for (const i of imports(f))
        if (/(^|\/)engine\//.test(i.spec) && !/engine\/(node|index|codegen\/node)\.js$/.test(i.spec) && !excepted(f, i.spec)) bad.push(`${f}: ${i.spec}`);
    }
    expect(bad).toEqual([]);
  });
});
