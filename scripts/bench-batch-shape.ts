/**
 * A second floor for `npm run bench:batch`: the cost of the output's shape alone. Reads a
 * batch CSV as ptax reads it (bytes, 256 KiB chunks, split at line feeds), and writes for
 * each row what a ptax output row is made of, with ptax's own writer (engine/batch/csv-out.ts):
 * the line itself, the place's three cells (the state and county cells copied), one
 * number per figure column (the row's value cell times a fixed factor, rounded and
 * printed as ptax prints figures) and the empty notes and error cells. No cell is parsed
 * beyond the value's digits, no rule is evaluated, no place is looked up.
 *
 * So no batch run that writes this output (every input column, then RESULT_COLUMNS, then
 * error and errorCode) can take less time than this does; its ratio to the line-by-line
 * floor shows how much of the 2.5× target the output's shape alone uses.
 *
 *   node dist/scripts/bench-batch-shape.js <file.csv>
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { once } from 'node:events';
import { RESULT_COLUMNS } from '../engine/node.js';
import { CsvOut, syncOutput } from '../engine/node.js';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node dist/scripts/bench-batch-shape.js <file.csv>\n');
  process.exit(2);
}
/** The figure columns: every result column but the county name, program, rules' year and notes. */
const FIGURES = RESULT_COLUMNS.length - 4;
const out = new CsvOut();
// Written as ptax writes its output: to a file or /dev/null synchronously, its buffers written again (CsvOut.writeTo).
const fd = syncOutput();
const text = String;
let rows = 0;
let header = true;
let valueCol = -1;
let rest: Buffer = Buffer.alloc(0);

function line(buf: Buffer, s: number, e: number): void {
  if (header) {
    header = false;
    const names = buf.toString('utf8', s, e).split(',');
    valueCol = names.indexOf('value');
    out.ensure(e - s + 1024);
    out.range(buf, s, e);
    for (const c of RESULT_COLUMNS) {
      out.byte(44);
      out.str(c.name);
    }
    out.str(',error,errorCode\n');
    return;
  }
  rows++;
  out.ensure(e - s + 1024);
  out.range(buf, s, e);
  out.byte(44);
  // The cells up to the value: the state and county cells (the 2nd and 3rd) stand in for the place's cells.
  let col = 0,
    start = s,
    value = 0,
    cs = s,
    ce = s;
  for (let j = s; j <= e; j++) {
    if (j === e || buf[j] === 44) {
      if (col === 2) {
        cs = start;
        ce = j;
      }
      if (col === valueCol) {
        for (let k = start; k < j; k++) {
          const d = buf[k]! - 48;
          if (d >= 0 && d <= 9) value = value * 10 + d;
        }
        break;
      }
      col++;
      start = j + 1;
    }
  }
  out.range(buf, cs, ce);
  out.byte(44);
  out.range(buf, cs, ce);
  out.byte(44);
  out.uint(2025);
  out.byte(44);
  for (let i = 1; i <= FIGURES; i++) {
    out.rounded(value * i * 0.0123457, 2, text);
    out.byte(44);
  }
  out.byte(44);
  out.byte(44);
  out.byte(10); // notes, error, errorCode: empty
}

// Read as ptax reads a file (cli/batch.ts, BatchReader.push): 256 KiB at a time into one
// buffer, an incomplete last line carried in a buffer of its own to the next read.
const fdIn = openSync(file, 'r');
const chunk = Buffer.allocUnsafe(1 << 18);
let carry = Buffer.allocUnsafe(1 << 19);
for (let n = readSync(fdIn, chunk, 0, chunk.length, null); n > 0; n = readSync(fdIn, chunk, 0, chunk.length, null)) {
  let buf = chunk.subarray(0, n);
  if (rest.length) {
    // rest is at carry's start (below).
    if (carry.length < rest.length + n) {
      const grown = Buffer.allocUnsafe(rest.length + n);
      rest.copy(grown, 0);
      carry = grown;
    }
    buf.copy(carry, rest.length);
    buf = carry.subarray(0, rest.length + n);
  }
  let p = 0;
  for (let nl = buf.indexOf(10, p); nl !== -1; nl = buf.indexOf(10, p)) {
    line(buf, p, nl > p && buf[nl - 1] === 13 ? nl - 1 : nl);
    p = nl + 1;
  }
  rest = buf.subarray(p);
  // Out of the chunk before the next read overwrites it (copy handles a rest inside carry).
  if (rest.length) rest = carry.subarray(0, rest.copy(carry, 0));
  if (fd !== undefined) out.writeTo(fd);
  else for (const b of out.take()) if (!process.stdout.write(b)) await once(process.stdout, 'drain');
}
closeSync(fdIn);
if (rest.length) line(rest, 0, rest.length);
if (fd !== undefined) out.writeTo(fd);
else for (const b of out.take()) process.stdout.write(b);
process.stderr.write(`shape: ${rows} rows\n`);
