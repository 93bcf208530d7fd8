/**
 * Standard output for the command line, written with fs.writeSync on descriptor 1 until
 * something asks for process.stdout (issue 23: start-up). Node makes process.stdout on first
 * use, and for a pipe that is a net.Socket with its streams: ~8 ms of CPU, a sixth of
 * `node -e 0` and more than half of what `ptax calc` may add to it (scripts/bench-startup.ts).
 * Written synchronously, the output is complete before any process.exit, as process.stdout's
 * writes to files, pipes and terminals are on Linux. Once process.stdout exists (commander's
 * help, a batch's stream), every write goes through it, in order.
 */
import { writeSync } from 'node:fs';

let stream = false;
let handling = false;
let onError: (e: NodeJS.ErrnoException) => void = (e) => {
  throw e;
};

/**
 * The reader of our output stopped early (`ptax counties --state TX | head`): EPIPE through a
 * pipe; ECONNRESET when the output is a socket (a program that started ptax with Node's spawn,
 * whose stdio are socket pairs) closed with output still unread in it. ptax then stops too,
 * quietly, as other tools do.
 */
export const readerStopped = (e: NodeJS.ErrnoException | undefined): boolean => e?.code === 'EPIPE' || e?.code === 'ECONNRESET';

/**
 * `handler` for a write error of standard output, whichever way it is written: the stream's
 * 'error' event, attached when process.stdout is first read (its getter is wrapped once,
 * then put back), and the errors of `out`'s own writes.
 */
export function onStdoutError(handler: (e: NodeJS.ErrnoException) => void): void {
  onError = handler;
  const d = Object.getOwnPropertyDescriptor(process, 'stdout');
  const get = d?.get;
  if (!d || !get || !d.configurable) {
    stream = true;
    process.stdout.on('error', handler);
    return;
  }
  Object.defineProperty(process, 'stdout', {
    ...d,
    get() {
      Object.defineProperty(process, 'stdout', d);
      stream = true;
      const s = get.call(process) as NodeJS.WriteStream;
      s.on('error', handler);
      return s;
    },
  });
}

/** Writes `text` to standard output: synchronously on descriptor 1 while process.stdout does not exist, else through it. */
export function out(text: string): void {
  if (stream) {
    process.stdout.write(text);
    return;
  }
  const b = Buffer.from(text);
  let at = 0;
  try {
    while (at < b.length) at += writeSync(1, b, at);
  } catch (e) {
    // A non-blocking descriptor that is full: the stream waits for it.
    if ((e as NodeJS.ErrnoException).code === 'EAGAIN') process.stdout.write(b.subarray(at));
    // The handler's own output (an error as JSON) failing too is not handled again.
    else if (!handling) {
      handling = true;
      onError(e as NodeJS.ErrnoException);
    }
  }
}

/** Whether everything written so far went out synchronously (process.stdout was never made): nothing is left to flush. */
export function allWritten(): boolean {
  return !stream;
}
