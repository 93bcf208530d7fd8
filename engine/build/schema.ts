/**
 * The rule files' schema checks: the YAML files of a folder, the JSON Schema validators
 * (ajv, strict mode) by kind of file, and their errors as problems at file:line:col.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { createRequire } from 'node:module';
import type _Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { type Problem, type YamlSource } from './yaml-source.js';

/**
 * ajv, loaded on first use: `ptax calc` and batch runs never check a schema, and loading
 * ajv costs about 30 ms of every start.
 */
let ajvClass: typeof _Ajv2020.default | undefined;
const Ajv2020 = (): typeof _Ajv2020.default =>
  (ajvClass ??= (createRequire(import.meta.url)('ajv/dist/2020.js') as { default: typeof _Ajv2020.default }).default);

export const KINDS = ['parameters', 'program', 'pieces', 'counties', 'state', 'inputs', 'results'] as const;
export type Kind = (typeof KINDS)[number];

/** Every .yaml file below a folder, sorted, as paths relative to `root`. */
export function listYaml(dir: string, root = process.cwd()): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.yaml') || name.endsWith('.yml')) out.push(relative(root, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out;
}

/**
 * The validators by the text of the schema files they were compiled from: a folder read
 * again, or a copy of schemas/ (a test's temporary copy of the repository, ~100 in
 * engine/build/load*.test.ts), is not compiled again. Compiling is about half of a load of
 * the rules whose YAML was parsed before (yaml-source.ts keeps that by text too).
 */
export const validatorCache = new Map<string, Record<Kind | 'fixture', ValidateFunction>>();
export function schemaValidators(schemaDir = resolve('schemas')): Record<Kind | 'fixture', ValidateFunction> {
  // An older tree (rules diff against a past commit) may have no schema for a newer kind.
  const names = ['common', ...KINDS, 'fixture'].filter((k) => k !== 'pieces' || existsSync(join(schemaDir, `${k}.schema.json`)));
  const texts = names.map((n) => String(readFileSync(join(schemaDir, `${n}.schema.json`))));
  const key = names.map((n, i) => `${n}\0${texts[i]}`).join('\0');
  const cached = validatorCache.get(key);
  if (cached) return cached;
  const ajv = new (Ajv2020())({ strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true });
  ajv.addSchema(JSON.parse(texts[0]!));
  const v = {} as Record<Kind | 'fixture', ValidateFunction>;
  names.slice(1).forEach((k, i) => (v[k as Kind | 'fixture'] = ajv.compile(JSON.parse(texts[i + 1]!))));
  validatorCache.set(key, v);
  return v;
}

/**
 * Turns ajv's errors into file:line:col problems, dropping the noise of failed oneOf branches
 * (an error inside branch N has a schemaPath with /oneOf/N/ in it; errors inside a $ref'd
 * schema have that schema's path). Unknown keys and enum values inside a branch are kept.
 */
export function schemaProblems(src: YamlSource, errors: ErrorObject[]): Problem[] {
  const out: Problem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const inBranch = /\/(oneOf|anyOf)\/\d/.test(e.schemaPath);
    if (inBranch && e.keyword !== 'additionalProperties' && e.keyword !== 'enum') continue;
    if (e.keyword === 'if') continue;
    const path = e.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    let key: string | undefined;
    let message = e.message!;
    if (e.keyword === 'additionalProperties') {
      key = String(e.params.additionalProperty);
      message = `unknown key '${key}'`;
    } else if (e.keyword === 'required') message = `missing '${e.params.missingProperty}'`;
    else if (e.keyword === 'enum') message = `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
    else if (e.keyword === 'oneOf') message = 'must have exactly one of the allowed forms (check the keys)';
    else if (e.keyword === 'propertyNames') {
      key = String(e.params.propertyName);
      message = `key '${key}' is not allowed here`;
    }
    const where = path.length ? path.join('.') + ' ' : '';
    const at = src.position(path, key);
    const text = `${where}${message}`;
    const id = `${at.line}:${at.col}:${text}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ file: src.file, line: at.line, col: at.col, message: text });
  }
  return out;
}

export const SCHEMA_LINE = /^# yaml-language-server: \$schema=(\S+)\s*$/;
