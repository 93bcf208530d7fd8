/**
 * The order in which vitest starts the test files (vitest.config.ts and
 * web/e2e/vitest.config.ts, `sequence.sequencer`): the longest first, so that two workers
 * end together instead of one running a long file alone at the end (the longest-processing-
 * time rule). Vitest's own order needs its cache of earlier runs' durations; a clean clone
 * has none, and it then starts the largest files by size: in the clean-clone run of
 * 2026-11-27 the end-to-end suite started spanish-text (141 s) at 237 s and a11y (62 s) at
 * 346 s, and ended at 408 s where this order ends at about 370 s.
 *
 * A file's length: its duration in vitest's cache when there is one (a second run on the
 * same checkout), else the seconds below, else 0 (then the larger file first). The seconds
 * are the wall times of the files that took 7 s or more in a clean clone of main on a quiet
 * machine (reports/vitest.json and reports/e2e.json, 2026-11-27 12:40 UTC), except
 * cli/fast-path.test.ts: scaled by its CPU after its table test went from 106 CLI starts to
 * two (branch vitestcpu, 2026-11-27: ~23.5 -> ~8.5 s of CPU). A stale figure only changes the
 * order, never what runs.
 */
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SECONDS: Record<string, number> = {
  // vitest.config.ts
  'web/src/lib/generated.test.ts': 101,
  'engine/sql/sql.test.ts': 96,
  'cli/batch.test.ts': 63,
  'web/server/test/crash.test.ts': 55,
  'cli/stale-show.test.ts': 55,
  'engine/codegen/js.test.ts': 52,
  'engine/build/load.test.ts': 45,
  'engine/differential.test.ts': 45,
  'cli/diff.test.ts': 33,
  'cli/cli.test.ts': 33,
  'engine/registry.test.ts': 28,
  'engine/ir-random.test.ts': 21,
  'web/server/test/api.test.ts': 20,
  'web/server/test/processes.test.ts': 20,
  'cli/fast-path.test.ts': 15,
  'web/server/test/abuse.test.ts': 12,
  'web/server/test/hardening.test.ts': 12,
  'engine/build/declarations.test.ts': 11,
  'web/src/components/App.test.tsx': 10,
  'web/server/test/mail.test.ts': 9,
  'cli/validate-file.test.ts': 8,
  'cli/main.test.ts': 8,
  'engine/build/sources.test.ts': 7,
  'engine/build/load-problems.test.ts': 7,
  // web/e2e/vitest.config.ts
  // site, editions and a11y scaled by their paired before/after walls (e2ecpu, 2026-11-27 20:30 UTC:
  // axe-core in the page): 0.74, 0.55, 0.57.
  'web/e2e/spanish-text.e2e.test.ts': 141,
  'web/e2e/site.e2e.test.ts': 104,
  'web/e2e/editions.e2e.test.ts': 59,
  'web/e2e/islands.e2e.test.ts': 55,
  'web/e2e/a11y.e2e.test.ts': 35,
  'web/e2e/desktop.e2e.test.ts': 45,
  'web/e2e/hydration.e2e.test.ts': 37,
  'web/e2e/wizard.e2e.test.ts': 34,
  'web/e2e/newsletter.e2e.test.ts': 27,
  'web/e2e/forms.e2e.test.ts': 25,
  'web/e2e/mail.e2e.test.ts': 23,
  'web/e2e/spanish.e2e.test.ts': 12,
  'web/e2e/hub-states.e2e.test.ts': 12,
  'web/e2e/rates.e2e.test.ts': 10,
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const length = (spec: TestSpecification): [number, number] => {
      const path = relative(config.root, spec.moduleId).split('\\').join('/');
      const cached = cache.getTestSpecificationResult(spec);
      const seconds = cached ? cached.duration / 1000 : (SECONDS[path] ?? 0);
      let size = 0;
      try {
        size = statSync(spec.moduleId).size;
      } catch {
        // a file that is gone sorts as the smallest
      }
      return [seconds, size];
    };
    const lengths = new Map(files.map((f) => [f, length(f)]));
    return [...files].sort((a, b) => {
      // As vitest's own order: the projects' group order, then one project after another
      // (the isolated files, short, first).
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      const [sa, za] = lengths.get(a)!;
      const [sb, zb] = lengths.get(b)!;
      return sb - sa || zb - za;
    });
  }
}
