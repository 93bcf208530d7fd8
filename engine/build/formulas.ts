/**
 * The formula language's checks at build time: parsing a formula (jsep) into the checked
 * syntax tree, the plain numbers a formula may use, the kinds of names (scalar, table,
 * band) and the operators of conditions.
 */
import jsep from 'jsep';
import { type YamlSource } from './yaml-source.js';
import { FUNCTIONS } from '../core/expr.js';
import { type Condition, type Expr, type Formula, type ParameterDef } from '../core/types.js';
import { PtaxError } from '../core/errors.js';
import type { Fail } from './checks.js';

/** Figures belong in parameters; a formula may use only these plain numbers. */
export const ALLOWED_LITERALS = [0, 1, 4, 12, 100];
/** Parses a formula with jsep and keeps only the rule language's subset. */
export function parseFormula(src: string): Formula {
  let ast: unknown;
  try {
    ast = jsep(src);
  } catch (e) {
    throw new PtaxError('FORMULA', `cannot parse formula "${src}": ${(e as Error).message}`);
  }
  return { src, ast: checkAst(ast as any, src) };
}

export function checkAst(n: any, src: string): Expr {
  const bad = (why: string): never => {
    throw new PtaxError('FORMULA', `formula "${src}": ${why}`);
  };
  switch (n.type) {
    case 'Literal':
      if (typeof n.value !== 'number') bad(`only numbers may be written in a formula, not ${n.raw}`);
      if (!ALLOWED_LITERALS.includes(n.value))
        bad(`the figure ${n.raw} belongs in a parameter with its citation (formulas may use only ${ALLOWED_LITERALS.join(', ')})`);
      return { type: 'Literal', value: n.value };
    case 'Identifier':
      return { type: 'Identifier', name: n.name };
    case 'BinaryExpression':
      if (!['+', '-', '*', '/'].includes(n.operator)) bad(`operator ${n.operator} is not arithmetic; write conditions as json-rules-engine conditions`);
      return { type: 'BinaryExpression', operator: n.operator, left: checkAst(n.left, src), right: checkAst(n.right, src) };
    case 'UnaryExpression':
      if (n.operator !== '-') bad(`operator ${n.operator} is not allowed`);
      return { type: 'UnaryExpression', operator: '-', argument: checkAst(n.argument, src) };
    case 'CallExpression':
      // Only an Identifier callee has a name.
      if (!(FUNCTIONS as readonly string[]).includes(n.callee.name)) bad(`unknown function; the rule language has ${FUNCTIONS.join(', ')}`);
      return { type: 'CallExpression', callee: { type: 'Identifier', name: n.callee.name }, arguments: n.arguments.map((a: any) => checkAst(a, src)) };
    case 'MemberExpression':
      if (n.object.type !== 'Identifier') bad('only a parameter table can be indexed');
      return { type: 'MemberExpression', object: checkAst(n.object, src), property: checkAst(n.property, src), computed: !!n.computed };
    default:
      return bad(`${n.type} is not part of the rule language`);
  }
}

/** What the compiler would refuse: tables without a key, unknown keys, wrong arity. */
export function kindProblems(e: Expr, known: Map<string, string>, tables: Map<string, ParameterDef>, out: string[] = []): string[] {
  const kind = (name: string) => known.get(name);
  switch (e.type) {
    case 'Identifier':
      if (kind(e.name) === 'parameter:by_key') out.push(`${e.name} is a table: index it, e.g. ${e.name}[key]`);
      if (kind(e.name) === 'parameter:bands') out.push(`${e.name} is a band table: use band(${e.name}, value)`);
      break;
    case 'BinaryExpression':
      kindProblems(e.left, known, tables, out);
      kindProblems(e.right, known, tables, out);
      break;
    case 'UnaryExpression':
      kindProblems(e.argument, known, tables, out);
      break;
    case 'MemberExpression': {
      const { name } = e.object as { name: string }; // checkAst: only an Identifier is indexed
      if (kind(name) === 'parameter:unknown') break; // its own file's problem is reported
      if (kind(name) !== 'parameter:by_key') {
        out.push(`${name} is not a table`);
        break;
      }
      const p = tables.get(name)!;
      // Without brackets the key is an Identifier (jsep).
      if (!e.computed && !p.keys!.includes((e.property as { name: string }).name))
        out.push(`${name} has no key ${(e.property as { name: string }).name} (keys: ${p.keys!.join(', ')})`);
      if (e.computed) kindProblems(e.property, known, tables, out);
      break;
    }
    case 'CallExpression': {
      const { name } = e.callee;
      const n = e.arguments.length;
      if (name === 'floor' && n !== 1) out.push('floor() takes one value');
      if (name === 'pow' && n !== 2) out.push('pow() takes a base and an exponent');
      if ((name === 'min' || name === 'max') && n < 2) out.push(`${name}() takes two or more values`);
      if (name === 'band') {
        const t = e.arguments[0];
        if (t?.type === 'Identifier' && kind(t.name) === 'parameter:unknown') break;
        if (n !== 2 || kind((t as { name: string }).name) !== 'parameter:bands') out.push('band() takes a band parameter and a value');
        else kindProblems(e.arguments[1]!, known, tables, out);
      } else e.arguments.forEach((a) => kindProblems(a, known, tables, out));
      break;
    }
  }
  return out;
}

/** The schema allows only the engine's OPERATORS; what it cannot say is that in/notIn take a list. */
export function checkOperators(src: YamlSource, path: Array<string | number>, c: Condition, fail: Fail) {
  if ('all' in c) c.all.forEach((x, i) => checkOperators(src, [...path, 'all', i], x, fail));
  else if ('any' in c) c.any.forEach((x, i) => checkOperators(src, [...path, 'any', i], x, fail));
  else if ('not' in c) checkOperators(src, [...path, 'not'], c.not, fail);
  else {
    if ((c.operator === 'in' || c.operator === 'notIn') && !Array.isArray(c.value)) fail(src, [...path, 'value'], `${c.operator} takes a list`);
  }
}
