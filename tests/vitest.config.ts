import { type TestProjectInlineConfiguration, configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Test files that change what a process keeps for its whole life, so each runs in a process of
 * its own: module mocks (parse-once), settings the console reads once (notify, firm-store), and
 * what the server keeps per firm or user id across databases (a firm's words by dictionary
 * version, users already identified to analytics, the demo reset in progress).
 */
const OWN_PROCESS = [
  "tests/api/parse-once.test.ts",
  "tests/api/notify.test.ts",
  "app/utils/firm-store.test.ts",
  "tests/api/dictionary.test.ts",
  "tests/api/analytics.test.ts",
  "tests/api/demo.test.ts",
  "tests/api/demo-reset.test.ts",
  "tests/api/request-ids.test.ts",
];

const ALL = ["server/**/*.test.ts", "app/**/*.test.ts", "tests/unit/**/*.test.ts", "tests/api/**/*.test.ts", "tests/dms/**/*.test.ts"];

/**
 * The files that also run on PostgreSQL in `npm test`: what the two databases do differently.
 * SQL written per database (search and its folding, counts and dashboards, lists with their
 * links and orders, exports and imports, the read scope and walls, seeds and the demo reset),
 * locking and concurrency (job claims, the stalled-work sweep, blobs, start-up, several machines),
 * what each database refuses (control characters) and the migrations. Every other file runs on
 * SQLite only; `npm run test:pg` (ECFX_TEST_PG_ALL=1) runs every file on both, as CI does.
 * Left to that pass although they ran on both: the access matrix (the rules are the product's,
 * the SQL under them is the read scope's, which isolation, ethical-walls and the search files
 * prove on PostgreSQL) and the crash at every stage (recovery on PostgreSQL: several-machines,
 * with workers and listeners killed; the sweep and the claims: stalled-work, worker-claims).
 */
const POSTGRES = [
  "tests/api/analytics.test.ts",
  "tests/api/case-documents.test.ts",
  "tests/api/case-tracking.test.ts",
  "tests/api/control-characters.test.ts",
  "tests/api/dashboard-counts-concurrency.test.ts",
  "tests/api/dashboard-kept.test.ts",
  "tests/api/dashboard.test.ts",
  "tests/api/demo-reset.test.ts",
  "tests/api/ethical-walls.test.ts",
  "tests/api/export.test.ts",
  "tests/api/firm.test.ts",
  "tests/api/import.test.ts",
  "tests/api/isolation.test.ts",
  "tests/api/jurisdiction-preferences.test.ts",
  "tests/api/kept-pages.test.ts",
  "tests/api/large-values.test.ts",
  "tests/api/last-administrator.test.ts",
  "tests/api/link-lists.test.ts",
  "tests/api/pipeline.test.ts",
  "tests/api/preferences.test.ts",
  "tests/api/search-accents.test.ts",
  "tests/api/search-counts.test.ts",
  "tests/api/search-references.test.ts",
  "tests/api/security-roles.test.ts",
  "tests/api/several-machines.test.ts",
  "tests/api/several-starts.test.ts",
  "tests/api/slow-calls.test.ts",
  "tests/api/stalled-work.test.ts",
  "tests/api/storage.test.ts",
  "tests/api/throttle.test.ts",
  "tests/api/worker-claims.test.ts",
  "tests/unit/firm-logo-migration.test.ts",
  "tests/unit/outbound-mail-notices-migration.test.ts",
  "server/seed/large.test.ts",
  "server/db/prepared-statements.test.ts",
  "server/db/database.test.ts",
  "server/db/polling-turn.test.ts",
];

/**
 * What a project changes of the config below: its files, whether they share processes, its env.
 * LOG_LEVEL: the product's own log lines of servers a test runs in its process; tests that read
 * them set their level and stream, processes a test starts name the level they need.
 */
function project(name: string, include: string[], exclude: string[], isolate: boolean, env: Record<string, string> = {}): TestProjectInlineConfiguration {
  return { extends: true, test: { name, include, exclude: [...configDefaults.exclude, ...exclude], isolate, env: { LOG_LEVEL: "silent", ...env } } };
}

// Loading the server's modules again for every file took about as long as the tests that use
// them: files share a process per worker and load them once, except OWN_PROCESS.
// Each project has workers of its own (Vitest never hands a worker to another project), so the
// databases the harness reads once per process (api/test-run.ts) are the project's.
const SQLITE_ONLY = { ECFX_TEST_PG_URL: "" };
const ownOnPostgres = OWN_PROCESS.filter((f) => POSTGRES.includes(f));
const projects = process.env.ECFX_TEST_PG_ALL
  ? [project("shared", ALL, OWN_PROCESS, false), project("own-process", OWN_PROCESS, [], true)]
  : [
      project("shared", ALL, [...OWN_PROCESS, ...POSTGRES], false, SQLITE_ONLY),
      project("shared-pg", POSTGRES, OWN_PROCESS, false),
      project("own-process", OWN_PROCESS, ownOnPostgres, true, SQLITE_ONLY),
      project("own-process-pg", ownOnPostgres, [], true),
    ];

/**
 * The files that run longest (they start and kill product processes, or build), started first so
 * that the run does not end on one of them while the other worker has nothing left; longest first.
 */
const LONGEST = [
  "tests/api/several-machines.test.ts",
  "tests/api/crash-stages.test.ts",
  "tests/api/crash-stages-late.test.ts",
  "tests/api/demo-reset.test.ts",
  "tests/api/every-core-console.test.ts",
  "tests/api/every-core.test.ts",
  "tests/api/crash-safety.test.ts",
  "server/cli/features.test.ts",
  "tests/api/access-matrix.test.ts",
  "tests/api/import.test.ts",
  "tests/api/contract.test.ts",
  "tests/api/object-store.test.ts",
];

/**
 * Projects one after the other (a worker loads the server's modules once per project): the one
 * with the longest file first, the many short files of the shared one last, to fill the run's end;
 * in a project the longest files first, the rest as Vitest orders them.
 */
const PROJECT_ORDER = ["shared-pg", "own-process-pg", "own-process", "shared"];
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = new URL("..", import.meta.url).pathname;
    const rank = (file: TestSpecification) => {
      const index = LONGEST.indexOf(file.moduleId.slice(root.length));
      return [PROJECT_ORDER.indexOf(file.project.name), index < 0 ? LONGEST.length : index];
    };
    // Array.prototype.sort is stable: the rest keep Vitest's order.
    return sorted.sort((a, b) => {
      const [pa, ia] = rank(a);
      const [pb, ib] = rank(b);
      return pa! - pb! || ia! - ib!;
    });
  }
}

// One config for unit and API tests; API tests start real servers on free ports.
export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    environment: "node",
    // Tags the run for its test databases and drops them at its end (api/test-run.ts).
    globalSetup: ["tests/api/test-run.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default on two cores is one file at a time; most files wait on servers, processes
    // and the database rather than on the CPU, so two at a time halve the run.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    projects,
  },
});
