/**
 * Strict YAML reading with positions: duplicate keys are errors, dates stay strings
 * (YAML 1.2 core schema), and any path into the document maps back to line:column.
 */
import { LineCounter, parseDocument, isMap, isSeq, isPair, isScalar, visit, type Document, type Node as YNode } from 'yaml';

export interface Problem { file: string; line: number; col: number; message: string }
export const formatProblem = (p: Problem): string => `${p.file}:${p.line}:${p.col}: ${p.message}`;

export interface YamlSource {
  file: string;
  text: string;
  doc: Document;
  data: unknown;
  /** Best-effort data even when the file has problems (for naming what it declares). */
  raw: unknown;
  problems: Problem[];
  /** line:column of the node at a JSON path (or of the key, when `key` is given). */
  position(path: Array<string | number>, key?: string): { line: number; col: number };
}

export function readYaml(file: string, text: string): YamlSource {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true, schema: 'core', prettyErrors: true });
  const problems: Problem[] = [];
  for (const e of [...doc.errors, ...doc.warnings]) {
    const at = e.linePos?.[0] ?? { line: 1, col: 1 };
    problems.push({ file, line: at.line, col: at.col, message: e.message.split('\n')[0]!.replace(/ at line \d+, column \d+.*$/, '') });
  }
  const pos = (offset: number | undefined) => {
    const p = lc.linePos(offset ?? 0);
    return { line: p.line, col: p.col };
  };
  // Aliases would let one value stand for another unseen; rule files spell values out.
  visit(doc, {
    Alias(_, node) {
      const at = pos(node.range?.[0]);
      problems.push({ file, ...at, message: `YAML aliases (*${node.source}) are not allowed in rule files: write the value out` });
    },
  });
  return {
    file,
    text,
    doc,
    data: problems.length ? undefined : doc.toJS({ maxAliasCount: 0 }),
    raw: (() => { try { return doc.toJS({ maxAliasCount: 100 }); } catch { return undefined; } })(),
    problems,
    position(path, key) {
      let node: unknown = doc.contents;
      let last: unknown = node;
      for (const seg of path) {
        if (isMap(node)) {
          const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
          if (!pair) break;
          last = pair.key;
          node = pair.value;
        } else if (isSeq(node)) {
          const item = node.items[Number(seg)];
          if (item === undefined) break;
          node = item;
        } else break;
        last = node ?? last;
      }
      if (key !== undefined && isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === key);
        if (pair && isScalar(pair.key)) return pos(pair.key.range?.[0]);
      }
      const n = (node ?? last) as YNode | undefined;
      return pos(n?.range?.[0]);
    },
  };
}
