/**
 * A small reader for the text of a PDF made by jsPDF: walks every `stream … endstream`,
 * inflates it when its dictionary says /FlateDecode (node:zlib), and collects the literal
 * strings shown by the text operators Tj and TJ, with PDF escapes undone.
 */
import { inflateSync } from 'node:zlib';

function unescape(s: string): string {
  return s.replace(/\\([nrtbf()\\]|[0-7]{1,3}|\r?\n)/g, (_, e: string) => {
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' } as Record<string, string>)[e] ?? '';
  });
}

/** Literal strings "(…)" in a content stream, balanced parentheses and escapes included. */
function literals(content: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < content.length; i++) {
    if (content[i] !== '(') continue;
    let depth = 1;
    let j = i + 1;
    for (; j < content.length && depth > 0; j++) {
      const c = content[j];
      if (c === '\\') {
        j++;
        continue;
      }
      if (c === '(') depth++;
      else if (c === ')') depth--;
    }
    out.push(content.slice(i + 1, j - 1));
    i = j - 1;
  }
  return out;
}

/** The text lines of a PDF, one per Tj/TJ operator. */
export function pdfTextLines(pdf: Buffer): string[] {
  const lines: string[] = [];
  const bin = pdf.toString('latin1');
  const re = /<<((?:[^<>]|<<[^>]*>>|<[^<>]*>)*)>>\s*stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(bin))) {
    const start = m.index + m[0].length;
    const end = bin.indexOf('endstream', start);
    if (end < 0) break;
    let data = pdf.subarray(start, end);
    if (/\/FlateDecode/.test(m[1]!)) {
      try {
        data = inflateSync(data);
      } catch {
        continue;
      }
    }
    const content = data.toString('latin1');
    // Each text operator: "(string) Tj" or "[(a) 12 (b)] TJ".
    const ops = /(\((?:\\.|[^\\)])*\)\s*Tj|\[(?:[^\]\\]|\\.)*\]\s*TJ)/g;
    let o: RegExpExecArray | null;
    while ((o = ops.exec(content))) lines.push(literals(o[1]!).map(unescape).join(''));
    re.lastIndex = end;
  }
  return lines;
}
