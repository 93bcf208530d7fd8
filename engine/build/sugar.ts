/**
 * The short forms of a program, compiled (desugared) at build time into the long form the
 * compiler, the differential test against json-rules-engine and `rules diff` read. Nothing
 * here runs at calculation time. The short forms (docs/rule-language.md):
 *
 * - A condition written as text in the formula language's syntax:
 *   `homestead` (the fact is true), `not homestead` (it is false), `a >= b`, `a == 'enhanced'`,
 *   `a != null`, `a in ['x', 'y']`, `a in keys(rate)` (the keys a by_key parameter declares),
 *   `not (a in …)`, `and`, `or` and parentheses (`!`, `&&`, `||` also). The fact is on the
 *   left; a name on the right is another fact. Plain numbers are those a formula may use.
 * - A step `when:` + `formula:` + `otherwise:` (two cases), and `otherwise:` after `cases:`
 *   (the last case); `otherwise: 0` is the formula "0".
 * - `- use: <piece>` in validations, steps or notes, and `use: <piece>` (or a list) at the
 *   top of `result`: the piece's entries of that part, from a `kind: pieces` file, in place.
 *   A piece's parameter aliases are added to the program's.
 *
 * Every desugared path maps back to where it was written (`origin`), so problems found
 * later are reported at the right file:line:col.
 */
import jsep from 'jsep';
import type { Problem, YamlSource } from './yaml-source.js';
import type { Condition, ConditionValue } from '../core/types.js';

/** Figures belong in parameters: a condition written as text may use only these plain numbers (as a formula). */
const ALLOWED_NUMBERS = [0, 1, 4, 12, 100];

const COMPARISONS: Record<string, string> = {
  '==': 'equal',
  '!=': 'notEqual',
  '<': 'lessThan',
  '<=': 'lessThanInclusive',
  '>': 'greaterThan',
  '>=': 'greaterThanInclusive',
  in: 'in',
};
/** Negations that keep json-rules-engine's meaning exactly (a missing fact included). */
const NEGATED: Record<string, string> = { equal: 'notEqual', notEqual: 'equal', in: 'notIn', notIn: 'in' };

export interface SugarContext {
  /** Parameters by id (for `keys(alias)`). */
  parameters: Record<string, { type: string; keys?: string[] }>;
  /** Pieces by name, with the file they come from. */
  pieces: Map<string, { src: YamlSource; data: any }>;
  /** Pieces of files that failed their schema (`piece:<name>`): a program using one is not checked further. */
  failing?: Set<string>;
}

export interface Where {
  src: YamlSource;
  path: Array<string | number>;
}
export interface Desugared {
  data: any;
  problems: Problem[];
  /** A piece it uses is in a file that failed: its own problems would only repeat that one. */
  incomplete: boolean;
  /** Where a path of the desugared program was written. */
  origin(path: Array<string | number>): Where;
}

class SugarError extends Error {}

/**
 * A condition written as text, as json-rules-engine's object. `aliases` are the program's
 * parameter aliases (alias → parameter id).
 */
export function parseCondition(text: string, aliases: Record<string, string>, ctx: Pick<SugarContext, 'parameters'>): Condition {
  let ast: any;
  // The words are operators only while a condition is read (a formula has none of them).
  jsep.addBinaryOp('in', 7);
  jsep.addBinaryOp('and', 2);
  jsep.addBinaryOp('or', 1);
  jsep.addUnaryOp('not');
  try {
    ast = jsep(text);
  } catch (e) {
    throw new SugarError(`cannot parse condition "${text}": ${(e as Error).message}`);
  } finally {
    jsep.removeBinaryOp('in');
    jsep.removeBinaryOp('and');
    jsep.removeBinaryOp('or');
    jsep.removeUnaryOp('not');
  }
  const bad = (why: string): never => {
    throw new SugarError(`condition "${text}": ${why}`);
  };

  const number = (n: number, raw: string) => {
    if (!ALLOWED_NUMBERS.includes(Math.abs(n)))
      bad(`the figure ${raw} belongs in a parameter with its citation (conditions may use only ${ALLOWED_NUMBERS.join(', ')})`);
    return n;
  };
  const scalar = (n: any): string | number | boolean | null => {
    if (n.type === 'Literal') return typeof n.value === 'number' ? number(n.value, n.raw) : n.value;
    if (n.type === 'UnaryExpression' && n.operator === '-' && n.argument.type === 'Literal' && typeof n.argument.value === 'number')
      return -number(n.argument.value, n.argument.raw);
    return bad(`a list holds only numbers, 'text', true, false or null, not ${n.type}`);
  };
  const list = (n: any): Array<string | number | boolean | null> => {
    if (n.type === 'ArrayExpression') return n.elements.map(scalar);
    if (n.type === 'CallExpression' && n.callee.type === 'Identifier' && n.arguments.length === 1 && n.arguments[0].type === 'Identifier') {
      const name: string = n.arguments[0].name;
      if (n.callee.name === 'keys') {
        const id = aliases[name];
        if (!id) return bad(`keys(${name}): ${name} is not a parameter alias of this program`);
        const p = ctx.parameters[id];
        if (!p) return []; // the alias's own problem is reported (or its file's)
        if (p.type !== 'by_key' || !p.keys) return bad(`keys(${name}): ${id} is not a by_key parameter`);
        return [...p.keys];
      }
    }
    return bad('`in` takes a list: [..] or keys(parameter alias)');
  };
  const value = (n: any, op: string): ConditionValue => {
    if (op === 'in') return list(n);
    if (n.type === 'Identifier') return { fact: n.name };
    return scalar(n);
  };
  const flatten = (n: any, op: string, out: any[] = []): any[] => {
    if (n.type === 'BinaryExpression' && n.operator === op) {
      flatten(n.left, op, out);
      flatten(n.right, op, out);
    } else out.push(n);
    return out;
  };
  const cond = (n: any): Condition => {
    switch (n.type) {
      case 'Identifier':
        return { fact: n.name, operator: 'equal', value: true };
      case 'UnaryExpression': {
        if (n.operator !== '!' && n.operator !== 'not') return bad(`operator ${n.operator} is not a condition`);
        const inner = cond(n.argument);
        if ('fact' in inner && inner.operator === 'equal' && inner.value === true && n.argument.type === 'Identifier') return { ...inner, value: false };
        if ('fact' in inner && NEGATED[inner.operator]) return { ...inner, operator: NEGATED[inner.operator]! };
        return { not: inner };
      }
      case 'BinaryExpression': {
        if (n.operator === '&&' || n.operator === 'and') return { all: flatten(n, n.operator).map(cond) };
        if (n.operator === '||' || n.operator === 'or') return { any: flatten(n, n.operator).map(cond) };
        const operator = COMPARISONS[n.operator];
        if (!operator) return bad(`operator ${n.operator} is not a comparison (==, !=, <, <=, >, >=, in, and, or, not)`);
        if (n.left.type !== 'Identifier') return bad(`the left of ${n.operator} must be a fact's name`);
        return { fact: n.left.name, operator, value: value(n.right, operator) };
      }
      default:
        return bad(`${n.type} is not part of a condition`);
    }
  };
  const c = cond(ast);
  // json-rules-engine's root is all / any / not: a single test is written {all: [test]}.
  return 'fact' in c ? { all: [c] } : c;
}

type Section = 'validations' | 'steps' | 'notes';
const SECTIONS: Section[] = ['validations', 'steps', 'notes'];

/** The program's short forms, as the long form. `src` is the program's file. */
export function desugarProgram(src: YamlSource, d: any, ctx: SugarContext): Desugared {
  const problems: Problem[] = [];
  const report = (w: Where, message: string) => {
    const at = w.src.position(w.path);
    problems.push({ file: w.src.file, line: at.line, col: at.col, message });
  };
  const out: any = { ...d, parameters: { ...(d.parameters ?? {}) } };
  const used = new Set<string>();
  let incomplete = false;
  const piece = (name: unknown, w: Where): { src: YamlSource; data: any } | undefined => {
    const p = typeof name === 'string' ? ctx.pieces.get(name) : undefined;
    if (!p && ctx.failing?.has(`piece:${String(name)}`)) {
      incomplete = true;
      return undefined;
    }
    if (!p) {
      report(w, `no piece ${String(name)} (pieces: ${[...ctx.pieces.keys()].join(', ') || 'none'})`);
      return undefined;
    }
    if (!used.has(name as string)) {
      used.add(name as string);
      for (const [alias, id] of Object.entries<string>(p.data.parameters ?? {})) {
        if (out.parameters[alias] !== undefined && out.parameters[alias] !== id)
          report(w, `piece ${String(name)} names ${alias} ${id}, the program ${out.parameters[alias]}`);
        else out.parameters[alias] = id;
      }
    }
    return p;
  };

  // Lists: `- use: piece` expands in place; every entry remembers where it was written.
  const origins: Record<Section, Where[]> = { validations: [], steps: [], notes: [] };
  for (const section of SECTIONS) {
    const list: any[] = [];
    (d[section] ?? []).forEach((x: any, i: number) => {
      const w = { src, path: [section, i] };
      if (x && typeof x === 'object' && 'use' in x) {
        const p = piece(x.use, { src, path: [section, i, 'use'] });
        (p?.data[section] ?? []).forEach((y: any, j: number) => {
          list.push(y);
          origins[section].push({ src: p!.src, path: ['pieces', x.use, section, j] });
        });
        if (p && !p.data[section]?.length) report(w, `piece ${x.use} has no ${section}`);
      } else {
        list.push(x);
        origins[section].push(w);
      }
    });
    if (d[section] !== undefined || section !== 'notes') out[section] = list;
  }

  const condition = (c: unknown, w: Where): Condition => {
    if (typeof c !== 'string') return c as Condition;
    try {
      return parseCondition(c, out.parameters, ctx);
    } catch (e) {
      if (!(e instanceof SugarError)) throw e;
      report(w, e.message);
      return { all: [{ fact: 'value', operator: 'equal', value: null }] }; // never used: the problem stops the bundle
    }
  };
  const at = (w: Where, ...rest: Array<string | number>): Where => ({ src: w.src, path: [...w.path, ...rest] });

  out.validations = out.validations.map((v: any, i: number) => ({ ...v, when: condition(v.when, at(origins.validations[i]!, 'when')) }));
  if (out.notes) out.notes = out.notes.map((n: any, i: number) => ({ ...n, when: condition(n.when, at(origins.notes[i]!, 'when')) }));

  // Steps: text conditions; when/otherwise and cases/otherwise as cases. `caseOrigin[i]`
  // maps a case index of step i to where it was written (a step-level when, an otherwise).
  const caseOrigin: Array<(j: number, rest: Array<string | number>) => Where> = [];
  out.steps = out.steps.map((s: any, i: number) => {
    const w = origins.steps[i]!;
    const { when, otherwise, ...step } = s;
    if (typeof step.condition === 'string') step.condition = condition(step.condition, at(w, 'condition'));
    const other = (o: unknown) => ({ formula: typeof o === 'number' ? String(o) : o });
    if (when !== undefined) {
      const first: any = { when: condition(when, at(w, 'when')) };
      if (step.formula !== undefined) first.formula = typeof step.formula === 'number' ? String(step.formula) : step.formula;
      if (step.value !== undefined) first.value = step.value;
      delete step.formula;
      delete step.value;
      step.cases = otherwise === undefined ? [first] : [first, other(otherwise)];
      caseOrigin[i] = (j, rest) => (j === 0 ? at(w, ...(rest[0] === 'when' ? ['when'] : rest)) : at(w, 'otherwise'));
    } else if (step.cases) {
      const n = step.cases.length;
      step.cases = step.cases.map((c: any, j: number) => (c.when === undefined ? c : { ...c, when: condition(c.when, at(w, 'cases', j, 'when')) }));
      if (otherwise !== undefined) step.cases.push(other(otherwise));
      caseOrigin[i] = (j, rest) => (j < n ? at(w, 'cases', j, ...rest) : at(w, 'otherwise'));
    } else if (otherwise !== undefined) report(at(w, 'otherwise'), '`otherwise` goes with `when` or `cases`');
    return step;
  });

  // Result: `use: piece` (or a list of pieces) at the top, expanded where it stands.
  const resultOrigin = new Map<string, Where>();
  if (d.result && typeof d.result === 'object') {
    const result: Record<string, unknown> = {};
    for (const [k, v] of Object.entries<any>(d.result)) {
      if (k !== 'use') {
        result[k] = v;
        resultOrigin.set(k, { src, path: ['result', k] });
        continue;
      }
      const names = Array.isArray(v) ? v : [v];
      names.forEach((name: unknown, j: number) => {
        const p = piece(name, { src, path: Array.isArray(v) ? ['result', 'use', j] : ['result', 'use'] });
        if (!p) return;
        if (!p.data.result) report({ src, path: ['result', 'use'] }, `piece ${String(name)} has no result`);
        for (const [rk, rv] of Object.entries<any>(p.data.result ?? {})) {
          if (rk in d.result) report({ src, path: ['result', rk] }, `result ${rk} is also given by piece ${String(name)}`);
          result[rk] = rv;
          resultOrigin.set(rk, { src: p.src, path: ['pieces', name as string, 'result', rk] });
        }
      });
    }
    out.result = result;
  }

  return {
    data: out,
    problems,
    incomplete,
    origin(path) {
      const [head, i, ...rest] = path;
      if ((head === 'validations' || head === 'notes') && typeof i === 'number' && origins[head][i]) return at(origins[head][i]!, ...rest);
      if (head === 'steps' && typeof i === 'number' && origins.steps[i]) {
        if (rest[0] === 'cases' && typeof rest[1] === 'number' && caseOrigin[i]) return caseOrigin[i]!(rest[1], rest.slice(2));
        return at(origins.steps[i]!, ...rest);
      }
      if (head === 'result' && typeof i === 'string' && resultOrigin.has(i)) return at(resultOrigin.get(i)!, ...rest);
      return { src, path };
    },
  };
}
