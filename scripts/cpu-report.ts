/**
 * A vitest setup file (vitest.config.ts, with PTAX_CPU_REPORT=<file>; scripts/test sets it to
 * reports/vitest-cpu.txt): appends one line per test file with the CPU seconds its worker
 * process spent on it, user + system, its own threads (DuckDB's too) and the child processes
 * it waited for (the CLI runs, servers), from /proc/self/stat. On a shared 2-core machine the
 * wall time of a file says more about the load than about the file; its CPU time does not.
 * No assertion: a record of where the test run's work goes (README, "Test time").
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, expect } from 'vitest';

/** utime + stime + cutime + cstime of this process, in seconds (Linux; 0 elsewhere). */
function cpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) in parentheses: state is field 3.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100; // USER_HZ
  } catch {
    return 0;
  }
}

const out = process.env.PTAX_CPU_REPORT;
if (out) {
  // Taken when the setup file runs, before the test file is imported (its top level counts).
  const start = cpuSeconds();
  const wall = performance.now();
  afterAll(() => {
    const file = relative(process.cwd(), expect.getState().testPath ?? '?');
    appendFileSync(out, `${(cpuSeconds() - start).toFixed(1)} ${((performance.now() - wall) / 1000).toFixed(1)} ${file}\n`);
  });
}
