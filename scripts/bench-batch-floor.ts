/**
 * The floor for `npm run bench:batch`: reads a file line by line (readline) and writes
 * one line per row (the line itself) to standard output, buffered like ptax's batch
 * output and written as it writes it: synchronously to a file or /dev/null (`syncOutput`),
 * else as a stream with the same backpressure. Nothing is parsed or calculated: what is left
 * is Node's reading, line splitting and writing, which no batch run can go below.
 *
 *   node dist/scripts/bench-batch-floor.js <file>
 */
import { createReadStream, writeSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { syncOutput } from '../engine/node.js';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node dist/scripts/bench-batch-floor.js <file>\n');
  process.exit(2);
}
const fd = syncOutput();
const write = (s: string): boolean => (fd === undefined ? process.stdout.write(s) : (writeSync(fd, s), true));
let rows = 0;
let buf = '';
for await (const line of createInterface({ input: createReadStream(file, { highWaterMark: 1 << 18 }), crlfDelay: Infinity })) {
  rows++;
  buf += line + '\n';
  if (buf.length > 1 << 18) {
    if (!write(buf)) await once(process.stdout, 'drain');
    buf = '';
  }
}
write(buf);
process.stderr.write(`floor: ${rows} lines\n`);
