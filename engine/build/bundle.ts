/**
 * The precompiled rules (JSON written by the build), read without YAML or schema work.
 *
 * The build (scripts/build-rules.ts, writeBundle) writes the whole bundle,
 * dist/rules/bundle.json (what the web build, the tests and any reader given a path parse),
 * and beside it its split, dist/rules/split/: index.json (the bundle without its states' and
 * programs' bodies, its parameters and input declarations), one file per state and per
 * program, parameters.json and inputs.json. readBundle() parses the index, and a state, a
 * program, the parameters or the inputs the first time they are read: `ptax calc --state TX` parses TX and its
 * program, whatever the other states weigh (issue 23 and issue 26's budget: ~350 B a county;
 * 3,200 more counties would add ~36 ms of parsing to every start). Each state and program
 * also has a light file (states/light/, programs/light/: readState, readProgram), so that a
 * calculation parses its one county and not a program's steps (issue 23). The files are ASCII
 * (asciiJson). The states and programs
 * are enumerable getters, so listing, spreading or printing the bundle reads them all and
 * gives the same objects as the JSON. The split is used only while it was made from the
 * bundle.json that is there (its size and modification time are recorded in the index);
 * otherwise the whole JSON is read. The unbundled CLI and its bundle (dist/cli/fast) read the
 * rules here alike; cli/fast-path.test.ts compares them for every state, and
 * engine/build/bundle.test.ts compares the split with the whole bundle.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bundle, CountyDef, ProgramDef, StateDef } from '../core/types.js';
import { setCountyIndex } from '../core/counties.js';
import { setKnownTemplates } from '../core/compile.js';
import { lowerProgram } from '../core/ir.js';

/** dist/rules/bundle.json, next to the compiled engine (dist/engine/…). */
export const BUNDLE_PATH = fileURLToPath(new URL('../../rules/bundle.json', import.meta.url));

/**
 * The index of a split bundle: the bundle's keys in its order, `states` and `programs` listing
 * their ids only, `parameters` and `inputs` true (in parameters.json and inputs.json, read when
 * first used), and
 * what it was made from, with each program's hash and fact template by `<program>@<year>`.
 */
export type SplitIndex = Omit<Bundle, 'states' | 'programs' | 'parameters' | 'inputs' | 'results'> & {
  states: string[];
  programs: string[];
  parameters: true | Bundle['parameters'];
  inputs: true | Bundle['inputs'];
  results: true | Bundle['results'];
  split: { size: number; mtimeMs: number; hashes: Record<string, string>; templates?: Record<string, Array<number | null>> };
};

/** The program hashes written with a split, by the bundle object read from it, and how to tell that its parameters and facts are still those read from the split. */
const KNOWN = new WeakMap<Bundle, { hashes: Record<string, string>; same: () => boolean }>();
/** The objects parsed from a split's files (a program replaced by another object is not among them). */
const FROM_SPLIT = new WeakSet<object>();

/**
 * engine/codegen/js.ts programHash(bundle, programId, year) as written with the split, for a
 * bundle that readSplit gave and whose parameters and program are the objects read from the
 * split (nothing in the CLI replaces them); undefined otherwise (the caller then computes it).
 * The CLI bundle's programHash asks here first (scripts/bundle-cli.ts).
 */
export function knownProgramHash(bundle: Bundle, programId: string, year: number): string | undefined {
  const k = KNOWN.get(bundle);
  if (!k || !k.same()) return undefined;
  const h = k.hashes[`${programId}@${year}`];
  const program = bundle.programs[programId];
  return h !== undefined && program && FROM_SPLIT.has(program) ? h : undefined;
}

/**
 * Writes the split of the bundle at `bundlePath` (writeBundle, in `npm run build`),
 * with `hash` (engine/codegen/js.ts programHash) of every program and year, so that the CLI
 * need not hash the program it runs to know its generated module matches: that costs ~9 ms of
 * every start (the program's text through SHA-256, node:crypto's loading or plain JS's).
 */
export function writeSplit(bundlePath: string, hash?: (b: Bundle, programId: string, year: number) => string): { states: number; programs: number } {
  const text = readFileSync(bundlePath, 'utf8');
  const { size, mtimeMs } = statSync(bundlePath);
  const bundle = JSON.parse(text) as Bundle;
  const dir = splitDir(bundlePath);
  rmSync(dir, { recursive: true, force: true });
  for (const kind of ['states', 'programs'] as const) {
    mkdirSync(join(dir, kind, 'light'), { recursive: true });
    for (const [id, v] of Object.entries(bundle[kind])) {
      if (kind === 'programs') {
        const { text, light } = programText(v as ProgramDef);
        writeFileSync(splitFile(dir, kind, id), text);
        if (light) writeFileSync(lightFile(dir, id, 'programs'), asciiJson(light));
        continue;
      }
      const { text, light } = stateText(v as StateDef);
      writeFileSync(splitFile(dir, kind, id), text);
      if (light) writeFileSync(lightFile(dir, id), asciiJson(light));
    }
  }
  // The parameters, the input declarations and the result declarations (most of the index's
  // weight) in files of their own: `ptax calc` with a generated program and its template below
  // reads none of them (the results only for a state detail or another language).
  for (const k of APART) writeFileSync(join(dir, `${k}.json`), asciiJson(bundle[k]));
  const index: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(bundle))
    index[k] = k === 'states' || k === 'programs' ? Object.keys(v as object) : (APART as readonly string[]).includes(k) ? true : v;
  const hashes: Record<string, string> = {};
  if (hash) for (const [id, p] of Object.entries(bundle.programs)) for (const y of p.years) hashes[`${id}@${y}`] = hash(bundle, id, y);
  // Each program's fact template (engine/core/ir.ts lowerProgram: the inputs' and steps' slots
  // null, the parameters in force), so that a start with a generated program need not lower
  // it (engine/core/compile.ts compileProgramLazily). A program that does not lower has none
  // (the run time lowers it and gives the error).
  const templates: Record<string, Array<number | null>> = {};
  for (const [id, p] of Object.entries(bundle.programs))
    for (const y of p.years) {
      try {
        templates[`${id}@${y}`] = lowerProgram(bundle, id, y).template;
      } catch {
        // no template: lowered at run time
      }
    }
  index.split = { size, mtimeMs, hashes, templates };
  // The index last: a split cut short has none, and is not used.
  writeFileSync(join(dir, 'index.json'), asciiJson(index));
  return { states: Object.keys(bundle.states).length, programs: Object.keys(bundle.programs).length };
}

/**
 * JSON with every character above U+007E written as a \u escape: the same value when parsed,
 * but a file of ASCII only. Node decodes a file read as UTF-8 into a two-byte string as soon
 * as it holds one character above U+00FF (TX's state file: five en dashes in its 92 KB), and
 * V8 then parses it as two-byte JSON: TX's state file cost ~8.3 M instructions to read and
 * parse, ~6.0 M in ASCII (issue 23).
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * What a state's light file holds (states/light/<code>.json): the state without its counties
 * (`counties` 0, in its place among the keys), each county's slug, and where each county's
 * JSON text and the whole counties array are in the state's file (character offsets: the
 * file is ASCII), whose size it records. A `ptax calc` reads it and its one county
 * (readState); anything that reads `counties` gets the whole array from the state's file.
 */
type LightState = { size: number; state: StateDef; slugs: string[]; at: number[]; range: [number, number] };

/** A state's file (asciiJson of it), and its light file when it has counties. */
function stateText(state: StateDef): { text: string; light?: LightState } {
  const text = asciiJson(state);
  if (!Array.isArray(state.counties) || state.counties.length === 0) return { text };
  // The same text, written key by key so that each county's place in it is known.
  const at: number[] = [];
  let range: [number, number] = [0, 0];
  let out = '{';
  let first = true;
  for (const [k, v] of Object.entries(state)) {
    if (v === undefined) continue;
    out += `${first ? '' : ','}${asciiJson(k)}:`;
    first = false;
    if (k !== 'counties') {
      out += asciiJson(v);
      continue;
    }
    const start = out.length;
    out += '[';
    state.counties.forEach((c, i) => {
      if (i) out += ',';
      at.push(out.length);
      out += asciiJson(c);
      at.push(out.length);
    });
    out += ']';
    range = [start, out.length];
  }
  out += '}';
  // (Should the text not come out the same, the state is read whole, as before.)
  if (out !== text) return { text };
  return {
    text,
    light: { size: text.length, state: { ...state, counties: 0 as unknown as CountyDef[] }, slugs: state.counties.map((c) => c.slug), at, range },
  };
}

/** A state's or program's light file in the split. */
const lightFile = (dir: string, id: string, kind: 'states' | 'programs' = 'states') => join(dir, kind, 'light', `${id}.json`);

/**
 * A program's fields that a calculation run by its generated module does not read: the
 * steps, notes and validations (31 of TX's 35 KB). They are read when something asks for
 * them (--explain, the interpreter, the lowering).
 */
const PROGRAM_APART = ['validations', 'steps', 'notes'] as const;

/** What a program's light file holds: the program with its PROGRAM_APART fields 0, and where each of them is in the program's file (ASCII), whose size it records. */
type LightProgram = { size: number; program: ProgramDef; ranges: Record<string, [number, number]> };

/** A program's file (asciiJson of it), and its light file. */
function programText(program: ProgramDef): { text: string; light?: LightProgram } {
  const text = asciiJson(program);
  const ranges: Record<string, [number, number]> = {};
  let out = '{';
  let first = true;
  for (const [k, v] of Object.entries(program)) {
    if (v === undefined) continue;
    out += `${first ? '' : ','}${asciiJson(k)}:`;
    first = false;
    const start = out.length;
    out += asciiJson(v);
    if ((PROGRAM_APART as readonly string[]).includes(k)) ranges[k] = [start, out.length];
  }
  out += '}';
  if (out !== text || Object.keys(ranges).length === 0) return { text };
  const light = { ...program } as Record<string, unknown>;
  for (const k of Object.keys(ranges)) light[k] = 0;
  return { text, light: { size: text.length, program: light as unknown as ProgramDef, ranges } };
}

/**
 * A program read through its light file: its PROGRAM_APART fields parsed from the program's
 * file (kept as bytes) when first read; assigning one replaces it. Undefined when there is no
 * light file or it was not made with the program's file as it is.
 */
function readProgram(dir: string, id: string): ProgramDef | undefined {
  let light: LightProgram;
  try {
    light = JSON.parse(readFileSync(lightFile(dir, id, 'programs'), 'utf8')) as LightProgram;
  } catch {
    return undefined;
  }
  const bytes = readFileSync(splitFile(dir, 'programs', id));
  if (bytes.length !== light.size) return undefined;
  const program = light.program;
  for (const [k, [start, end]] of Object.entries(light.ranges)) {
    let value: unknown;
    Object.defineProperty(program, k, {
      enumerable: true,
      configurable: true,
      get: () => (value ??= JSON.parse(bytes.toString('latin1', start, end))),
      set: (x: unknown) => Object.defineProperty(program, k, { value: x, enumerable: true, writable: true, configurable: true }),
    });
  }
  return program;
}

/**
 * A state read through its light file: the state's own fields parsed, its counties left in
 * the state's file (read as bytes, not decoded) until one is looked up by slug
 * (engine/core/counties.ts setCountyIndex: that county alone is parsed) or `counties` is read
 * (then the whole array, holding the counties parsed before). Undefined when there is no
 * light file or it was not made with the state's file as it is (its size): the caller then
 * parses the state's file whole.
 */
function readState(dir: string, id: string): StateDef | undefined {
  let light: LightState;
  try {
    light = JSON.parse(readFileSync(lightFile(dir, id), 'utf8')) as LightState;
  } catch {
    return undefined;
  }
  const bytes = readFileSync(splitFile(dir, 'states', id));
  if (bytes.length !== light.size) return undefined;
  const state = light.state;
  const parsed: CountyDef[] = [];
  const one = (i: number): CountyDef => (parsed[i] ??= JSON.parse(bytes.toString('latin1', light.at[2 * i], light.at[2 * i + 1])) as CountyDef);
  let all: CountyDef[] | undefined;
  const counties = (): CountyDef[] => {
    if (!all) {
      all = JSON.parse(bytes.toString('latin1', light.range[0], light.range[1])) as CountyDef[];
      parsed.forEach((c, i) => (all![i] = c));
    }
    return all;
  };
  Object.defineProperty(state, 'counties', {
    enumerable: true,
    configurable: true,
    get: counties,
    set: (x: CountyDef[]) => {
      setCountyIndex(state, undefined);
      Object.defineProperty(state, 'counties', { value: x, enumerable: true, writable: true, configurable: true });
    },
  });
  // A county's place in the file by its slug (the first of a slug written twice, as a scan
  // from the start finds it), made on the first look-up: a roll asks for a state's counties
  // by slug once per place (the batch's first rows), up to 254 in Texas.
  let where: Map<string, number> | undefined;
  const indexOf = (slug: string): number | undefined => {
    if (!where) {
      where = new Map();
      light.slugs.forEach((sl, i) => where!.has(sl) || where!.set(sl, i));
    }
    return where.get(slug);
  };
  setCountyIndex(state, {
    count: () => (all ? all.length : light.slugs.length),
    bySlug: (slug) => {
      const i = indexOf(slug);
      if (all) return i !== undefined && all[i]?.slug === slug ? all[i] : all.find((c) => c.slug === slug);
      return i === undefined ? undefined : one(i);
    },
  });
  return state;
}

/** The bundle's keys written apart from the index (split/<key>.json), read on first use. */
const APART = ['parameters', 'inputs', 'results'] as const;

/** dist/rules/split, beside the bundle it splits. */
export const splitDir = (bundlePath: string) => join(dirname(bundlePath), 'split');
/** A state's or program's file in the split (ids are rule ids or two-letter codes: safe as file names). */
export const splitFile = (dir: string, kind: 'states' | 'programs', id: string) => join(dir, kind, `${id}.json`);

function lazy<T>(dir: string, kind: 'states' | 'programs', ids: string[]): Record<string, T> {
  const out: Record<string, T> = {};
  for (const id of ids) {
    let value: T | undefined;
    Object.defineProperty(out, id, {
      enumerable: true,
      configurable: true,
      get: () => {
        if (value === undefined) {
          value = ((kind === 'states' ? readState(dir, id) : readProgram(dir, id)) ?? JSON.parse(readFileSync(splitFile(dir, kind, id), 'utf8'))) as T;
          FROM_SPLIT.add(value as object);
        }
        return value;
      },
      set: (v: T) => {
        value = v;
      },
    });
  }
  return out;
}

/** The split bundle beside `bundlePath`, while it was made from that very file; else undefined. */
export function readSplit(bundlePath: string): Bundle | undefined {
  const dir = splitDir(bundlePath);
  let index: SplitIndex;
  try {
    index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as SplitIndex;
  } catch {
    return undefined;
  }
  const now = statSync(bundlePath, { throwIfNoEntry: false });
  if (!now || now.size !== index.split.size || now.mtimeMs !== index.split.mtimeMs) return undefined;
  const out: Record<string, unknown> = {};
  const readers = new Map<string, () => unknown>();
  for (const [k, v] of Object.entries(index)) {
    if (k === 'split') continue;
    if (v === true && (APART as readonly string[]).includes(k)) {
      // Read on first use, as a state or program is; assigning replaces the value (and what
      // is known from the split no longer applies to the parameters: `same` below).
      let value: unknown;
      const read = () => (value ??= JSON.parse(readFileSync(join(dir, `${k}.json`), 'utf8')));
      readers.set(k, read);
      Object.defineProperty(out, k, {
        enumerable: true,
        configurable: true,
        get: read,
        set: (x: unknown) => Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true }),
      });
      continue;
    }
    out[k] = k === 'states' || k === 'programs' ? lazy(dir, k, v as string[]) : v;
  }
  const bundle = out as unknown as Bundle;
  const facts = bundle.facts;
  const readParameters = readers.get('parameters');
  const parameters = readParameters ? undefined : bundle.parameters;
  const same = (): boolean =>
    bundle.facts === facts &&
    (readParameters ? Object.getOwnPropertyDescriptor(bundle, 'parameters')?.get === readParameters : bundle.parameters === parameters);
  KNOWN.set(bundle, { hashes: index.split.hashes ?? {}, same });
  const templates = index.split.templates ?? {};
  setKnownTemplates(bundle, (programId, year) => {
    const t = templates[`${programId}@${year}`];
    const program = bundle.programs[programId];
    return t !== undefined && program && FROM_SPLIT.has(program) && same() ? t : undefined;
  });
  return bundle;
}

/** The bundle at `path` (default dist/rules/bundle.json), through its split while that was made from it. */
export function readBundle(path = BUNDLE_PATH): Bundle {
  return readSplit(path) ?? (JSON.parse(readFileSync(path, 'utf8')) as Bundle);
}

/**
 * Writes the bundle (the build: scripts/build-rules.ts) and its split, with `hash`
 * (engine/codegen/js.ts programHash) of every program and year.
 */
export function writeBundle(bundle: Bundle, path = BUNDLE_PATH, hash?: (b: Bundle, programId: string, year: number) => string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(bundle));
  writeSplit(path, hash);
}
