/**
 * Strict YAML reading with positions: duplicate keys are errors, dates stay strings
 * (YAML 1.2 core schema, the yaml package's default), and any path into the document
 * maps back to line:column.
 */
import { createRequire } from 'node:module';
import type * as YamlLib from 'yaml';
import type { Document, Node as YNode, Scalar, YAMLMap } from 'yaml';

/**
 * The yaml package, loaded on first use: `ptax calc` and batch runs read the compiled
 * bundle, not YAML, and loading yaml costs about 30 ms of every start.
 */
let yamlLib: typeof YamlLib | undefined;
const Y = (): typeof YamlLib => (yamlLib ??= createRequire(import.meta.url)('yaml') as typeof YamlLib);

export interface Problem {
  file: string;
  line: number;
  col: number;
  message: string;
}
export const formatProblem = (p: Problem): string => `${p.file}:${p.line}:${p.col}: ${p.message}`;

export interface YamlSource {
  file: string;
  text: string;
  doc: Document;
  data: unknown;
  /** Best-effort data even when the file has problems (for naming what it declares). */
  raw: unknown;
  problems: Problem[];
  /**
   * line:column of the node at a JSON path (or of the key, when `key` is given); `file` when
   * the node is in another file (a desugared program's piece, engine/build/sugar.ts).
   */
  position(path: Array<string | number>, key?: string): { line: number; col: number; file?: string };
}

/**
 * The data of every file read without problems in this process, by its text: a file read
 * again (the rules loaded twice, or a copy of rules/ in a test) is not parsed again, and its
 * document (for positions) is parsed only if a position is asked for. The county files of the
 * 48 county-level states are about 1 MB of YAML, whose parsing is most of a load.
 */
const parsed = new Map<string, unknown>();

/**
 * The same, kept between processes: each `ptax validate`, rule build or test process parsed the
 * ~370 rule files again (about 3 s of CPU, most of a `ptax validate`). A file read without
 * problems leaves its data (v8.serialize: Infinity, NaN and -0 survive, unlike JSON) in
 * PTAX_YAML_CACHE (a folder; default <tmpdir>/ptax-yaml-cache-<user id>; `off`: none), under
 * the SHA-256 of the yaml package's version, this format's and the text: another text, or
 * another yaml, is another entry. Entries are written to a temporary name and renamed, so a
 * reader never sees half of one; one that cannot be read is parsed again. A file with
 * problems is never kept: each read reports them.
 */
const DISK_FORMAT = 'ptax-yaml-1';
interface Disk {
  dir: string;
  fs: typeof import('node:fs');
  v8: typeof import('node:v8');
  hash: (s: string) => string;
  salt: string;
}
let disk: Disk | null | undefined;
function diskCache(): Disk | null {
  if (disk !== undefined) return disk;
  const setting = process.env.PTAX_YAML_CACHE;
  if (setting === 'off') return (disk = null);
  try {
    const req = createRequire(import.meta.url);
    const os = req('node:os') as typeof import('node:os');
    const crypto = req('node:crypto') as typeof import('node:crypto');
    const dir = setting || `${os.tmpdir()}/ptax-yaml-cache-${process.getuid?.() ?? 'user'}`;
    const salt = `${DISK_FORMAT}\0${(req('yaml/package.json') as { version: string }).version}\0`;
    disk = { dir, fs: req('node:fs'), v8: req('node:v8'), hash: (t) => crypto.createHash('sha256').update(salt).update(t).digest('hex'), salt };
  } catch {
    disk = null;
  }
  return disk;
}
function diskGet(text: string): unknown {
  const d = diskCache();
  if (!d) return undefined;
  try {
    return d.v8.deserialize(d.fs.readFileSync(`${d.dir}/${d.hash(text)}`)) as unknown;
  } catch {
    return undefined;
  }
}
function diskPut(text: string, data: unknown): void {
  const d = diskCache();
  if (!d) return;
  try {
    d.fs.mkdirSync(d.dir, { recursive: true });
    const path = `${d.dir}/${d.hash(text)}`;
    const tmp = `${path}.${process.pid}.tmp`;
    d.fs.writeFileSync(tmp, d.v8.serialize(data));
    d.fs.renameSync(tmp, path);
  } catch {
    /* a cache that cannot be written is no cache */
  }
}

export function readYaml(file: string, text: string): YamlSource {
  let known = parsed.get(text);
  if (known === undefined) {
    known = diskGet(text);
    if (known !== undefined) parsed.set(text, known);
  }
  if (known !== undefined) {
    let full: YamlSource | undefined;
    const parse = () => (full ??= parseYaml(file, text));
    return {
      file,
      text,
      get doc() {
        return parse().doc;
      },
      data: structuredClone(known),
      get raw() {
        return parse().raw;
      },
      problems: [],
      position: (path, key) => parse().position(path, key),
    };
  }
  const src = parseYaml(file, text);
  if (!src.problems.length) {
    parsed.set(text, structuredClone(src.data));
    diskPut(text, src.data);
  }
  return src;
}

function parseYaml(file: string, text: string): YamlSource {
  const lc = new (Y().LineCounter)();
  // Not prettyErrors: the message stays one line and the position is taken from e.pos.
  const doc = Y().parseDocument(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: false });
  const pos = (offset: number): { line: number; col: number } => lc.linePos(offset);
  const problems: Problem[] = [];
  for (const e of [...doc.errors, ...doc.warnings]) problems.push({ file, ...pos(e.pos[0]), message: e.message });
  // Aliases would let one value stand for another unseen; rule files spell values out.
  Y().visit(doc, {
    Alias(_, node) {
      const at = pos(node.range![0]);
      problems.push({ file, ...at, message: `YAML aliases (*${node.source}) are not allowed in rule files: write the value out` });
    },
  });
  return {
    file,
    text,
    doc,
    // With no problem there is no alias, so no alias limit is needed.
    data: problems.length ? undefined : doc.toJS(),
    raw: rawData(doc),
    problems,
    position(path, key) {
      let node: unknown = doc.contents;
      let last: unknown = node; // the key, when a value is missing ({a} or `? a`)
      for (const seg of path) {
        if (Y().isMap(node)) {
          const pair = pairAt(node, String(seg));
          if (!pair) break;
          last = pair.key;
          node = pair.value;
        } else if (Y().isSeq(node)) node = node.items[Number(seg)];
        else break;
        last = node ?? last;
      }
      const pair = Y().isMap(node) ? pairAt(node, key) : undefined;
      const n = (pair ? pair.key : (node ?? last)) as YNode | null;
      return pos(n ? n.range![0] : 0);
    },
  };
}

/**
 * The pair of a map with this key. Keys are never null in a parsed document; a key
 * that is not a scalar (a YAML complex key) has no `value` and matches no path.
 */
function pairAt(map: YAMLMap, key: string | undefined) {
  return map.items.find((p) => String((p.key as Scalar).value) === key);
}

/** Best-effort data even from a file with problems; an alias to no anchor makes toJS throw. */
function rawData(doc: Document): unknown {
  let raw: unknown;
  try {
    raw = doc.toJS();
  } catch {
    /* nothing to name */
  }
  return raw;
}
