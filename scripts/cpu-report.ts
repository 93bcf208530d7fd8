/**
 * A vitest test runner (vitest.config.ts `runner`, with PTAX_CPU_REPORT=<file>; scripts/test
 * sets it to reports/vitest-cpu.txt): appends one line per test file with the CPU seconds its
 * worker process spent on it, user + system, its own threads (DuckDB's too) and the child
 * processes it waited for (the CLI runs, servers), from /proc/self/stat, and its wall seconds.
 * On a shared 2-core machine the wall time of a file says more about the load than about the
 * file; its CPU time does not. No assertion: a record of where the test run's work goes
 * (README, "Test time").
 *
 * A runner, not a setup file: most files share a worker process (vitest.config.ts, project
 * `shared`, `isolate: false`), where a setup file's module runs once per worker, so its hooks
 * saw only the first file of each worker. The runner is asked about every file: from the start
 * of its collection (its imports count) to the end of its run.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { TestRunner, type RunnerTestFile, type RunnerTestSuite } from 'vitest';

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

export default class CpuReportRunner extends TestRunner {
  private readonly started = new Map<string, { cpu: number; wall: number }>();

  override onCollectStart(file: RunnerTestFile): void {
    this.started.set(file.filepath, { cpu: cpuSeconds(), wall: performance.now() });
    super.onCollectStart(file);
  }

  override async onAfterRunSuite(suite: RunnerTestSuite): Promise<void> {
    await super.onAfterRunSuite(suite);
    const out = process.env.PTAX_CPU_REPORT;
    const start = suite.file === suite ? this.started.get(suite.file.filepath) : undefined;
    if (!out || !start) return;
    this.started.delete(suite.file.filepath);
    const cpu = cpuSeconds() - start.cpu;
    const wall = (performance.now() - start.wall) / 1000;
    appendFileSync(out, `${cpu.toFixed(1)} ${wall.toFixed(1)} ${relative(process.cwd(), suite.file.filepath)}\n`);
  }
}
