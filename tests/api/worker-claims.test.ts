import { type KyselyPlugin, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../app/common/logger";
import { logCapture } from "../log-capture";
import { insertNoticeRow } from "./notice-rows";
import { openDatabase } from "../../server/db/database";
import { POLLING_LOCK } from "../../server/db/polling-turn";
import { firmReadsOfClaim, firmWebhooks, findFirm } from "../../server/firm/firm-repository";
import { claimJob, completeAndClaimNext, enqueue, releaseJob } from "../../server/queue/queue";
import { type JobHandlers, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { type RunningApi, backends, startApi } from "./harness";

// A worker completes a job and takes the next in one transaction. What must hold: every job of a
// chain runs once, a drain still waits for the last of them, and a worker that stops takes no
// job it will not run (or gives it back, its attempt not counted).

describe.each(backends)("a worker completing a job and taking the next together (%s)", (backend) => {
  let running: RunningApi;
  let firmId = 0;
  const db = () => running.ctx.database.db;
  const queue = (refId: string) => enqueue(db(), { kind: "apply-walls", firmId, refId, runAt: running.ctx.clock.now() });
  /** The pipeline's handlers, with "apply-walls" doing `run` instead. */
  const withStep = (run: (refId: string) => Promise<void>): JobHandlers => ({ ...PIPELINE_JOBS, "apply-walls": { run: (_ctx, job) => run(job.ref_id) } });
  /**
   * Counts every statement run through `db.withPlugin(counter.plugin)`, by its result: a query
   * built into another is transformed, not run, on its own.
   */
  const statementCounter = () => {
    const counter = {
      n: 0,
      plugin: {
        transformQuery: (args) => args.node,
        transformResult: async (args) => {
          counter.n++;
          return args.result;
        },
      } as KyselyPlugin,
    };
    return counter;
  };
  /** Handlers whose step records its job and waits until released. */
  const heldSteps = () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    const handlers = withStep(async (refId) => {
      started.push(refId);
      await held;
    });
    return { started, handlers, release: () => release() };
  };

  beforeAll(async () => {
    running = await startApi({ backend });
    firmId = (await db().selectFrom("firm").select("id").where("is_default", "=", 1).executeTakeFirstOrThrow()).id;
  });

  afterAll(async () => {
    await running?.close();
  });

  it("runs each job of a chain once, and a drain waits for the last", async () => {
    const ran: string[] = [];
    const worker = startWorker(
      running.ctx,
      withStep(async (refId) => {
        ran.push(refId);
        // Each step queues the next, as the pipeline's jobs do.
        if (refId.length < 6) await queue(`${refId}+`);
      }),
      1,
    );
    try {
      await queue("a");
      await worker.drain();
      expect(ran).toEqual(["a", "a+", "a++", "a+++", "a++++", "a+++++"]);
      expect(await db().selectFrom("job").select("id").execute()).toEqual([]);
    } finally {
      await worker.stop();
    }
  });

  it("takes no new job with its last completion once it is stopping", async () => {
    let stopped: Promise<void> | undefined;
    const worker = startWorker(
      running.ctx,
      withStep(async (refId) => {
        if (refId !== "first") return;
        await queue("second");
        stopped = worker.stop();
      }),
      1,
    );
    await queue("first");
    for (let i = 0; i < 200 && !stopped; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    await stopped;
    const left = await db().selectFrom("job").select(["ref_id", "locked_by", "attempts"]).execute();
    expect(left).toEqual([{ ref_id: "second", locked_by: null, attempts: 0 }]);
    await db().deleteFrom("job").execute();
  });

  it("gives a job taken but not started back, its attempt not counted", async () => {
    await queue("taken");
    const job = await claimJob(running.ctx, "test-worker", 60_000);
    expect(job).toMatchObject({ ref_id: "taken", attempts: 1, locked_by: "test-worker" });
    await releaseJob(running.ctx, job!);
    const again = await db().selectFrom("job").select(["locked_by", "locked_until", "attempts"]).where("id", "=", job!.id).executeTakeFirstOrThrow();
    expect(again).toEqual({ locked_by: null, locked_until: null, attempts: 0 });
    // Another worker takes it at once.
    expect(await claimJob(running.ctx, "other-worker", 60_000)).toMatchObject({ id: job!.id, locked_by: "other-worker" });
    await db().deleteFrom("job").execute();
  });

  it("reads the job's firm and its enabled webhooks with the claim on PostgreSQL, as read alone", async () => {
    const other = (await db().selectFrom("firm").select("id").where("id", "!=", firmId).executeTakeFirstOrThrow()).id;
    const at = running.ctx.clock.now();
    const hook = (id: string, firm: number, enabled: number) => ({
      id,
      firm_id: firm,
      created_at: at,
      updated_at: at,
      name: id,
      url: "https://hooks.example/",
      events: '["notice.processed"]',
      type: "STANDARD",
      payload_version: "1",
      enabled,
      secret_sealed: "x",
      secret_shown: 0,
      created_by: null,
      failing_since: null,
    });
    await db()
      .insertInto("webhook")
      .values([hook("claim-on", firmId, 1), hook("claim-off", firmId, 0), hook("claim-other", other, 1)])
      .execute();
    try {
      await queue("with-firm");
      const job = await claimJob(running.ctx, "claimer", 60_000);
      const read = firmReadsOfClaim(job!);
      if (backend === "sqlite") expect(read).toEqual(new Map());
      else {
        const webhooks = await firmWebhooks(db(), firmId);
        expect(webhooks.map((w) => w.id)).toEqual(["claim-on"]);
        expect(read).toEqual(
          new Map<string, unknown>([
            [`firm:${firmId}`, await findFirm(running.ctx.database, firmId)],
            [`webhooks:${firmId}`, webhooks],
          ]),
        );
      }
    } finally {
      await db().deleteFrom("job").execute();
      await db().deleteFrom("webhook").where("id", "like", "claim-%").execute();
    }
  });

  it("says in its line per stage what the job left, on PostgreSQL read with the job's completion", async () => {
    const lines = logCapture();
    const at = running.ctx.clock.now();
    await insertNoticeRow(db(), { id: "stage-item", firmId, at, status: "New" });
    const handlers: JobHandlers = {
      ...PIPELINE_JOBS,
      "apply-walls": {
        run: async (_ctx, job) => void (await db().updateTable("inbox_item").set({ status: "Succeeded" }).where("id", "=", job.ref_id).execute()),
        describe: async (_ctx, job, left) => {
          const item =
            left !== undefined
              ? (left as { status: string } | null)
              : await db().selectFrom("inbox_item").select("status").where("id", "=", job.ref_id).executeTakeFirst();
          return { itemId: job.ref_id, outcome: `${item?.status} (${left !== undefined ? "with the completion" : "read alone"})` };
        },
        left: (job) => sql`(select json_build_object('status', status) from inbox_item where id = ${job.ref_id})`,
      },
    };
    const worker = startWorker(running.ctx, handlers, 1, { log: createLogger({ level: "info", stream: lines.stream }) });
    try {
      await queue("stage-item");
      await worker.drain();
    } finally {
      await worker.stop();
      await db().deleteFrom("inbox_item").where("id", "=", "stage-item").execute();
    }
    const said = backend === "postgres" ? "Succeeded (with the completion)" : "Succeeded (read alone)";
    expect(
      lines
        .lines()
        .filter((l) => l.stage === "apply-walls")
        .map((l) => [l.itemId, l.outcome]),
    ).toEqual([["stage-item", said]]);
  });

  it("never hands one job to two claims made at once, alone or with a completion", async () => {
    const refs = Array.from({ length: 12 }, (_, n) => `due-${n}`);
    for (const ref of refs) await queue(ref);
    // Three times as many claims as jobs, all at once (on PostgreSQL, on as many connections).
    const claims = await Promise.all(Array.from({ length: 36 }, (_, n) => claimJob(running.ctx, `claimer-${n}`, 60_000)));
    const taken = claims.filter((job) => job !== undefined);
    expect(taken.map((job) => job.ref_id).sort()).toEqual([...refs].sort());
    expect(taken.every((job) => job.attempts === 1)).toBe(true);
    // Each completion takes one of the next jobs; no two take the same, and none takes its own.
    const next = Array.from({ length: 12 }, (_, n) => `next-${n}`);
    for (const ref of next) await queue(ref);
    const carried = await Promise.all(taken.map(async (job) => (await completeAndClaimNext(running.ctx, job, job.locked_by!, 60_000)).next));
    expect(carried.map((job) => job?.ref_id).sort()).toEqual([...next].sort());
    expect(carried.every((job) => job?.dictionary_version !== undefined)).toBe(true);
    expect((await db().selectFrom("job").select("ref_id").execute()).map((j) => j.ref_id).sort()).toEqual([...next].sort());
    await db().deleteFrom("job").execute();
  });

  it("runs every job once with three workers on connections of their own taking jobs at once", async () => {
    const ran: string[] = [];
    const step = withStep(async (refId) => {
      ran.push(refId);
      // Long enough for the other loops to claim meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    const databases = [0, 1, 2].map(() => openDatabase(running.ctx.config.databaseUrl));
    const workers = databases.map((database) => startWorker({ ...running.ctx, database }, step, 4));
    try {
      const refs = Array.from({ length: 90 }, (_, n) => `burst-${n}`);
      await db()
        .insertInto("job")
        .values(
          refs.map((ref_id, n) => ({
            id: `burst-job-${n}`,
            kind: "apply-walls",
            firm_id: firmId,
            ref_id,
            run_at: running.ctx.clock.now(),
            attempts: 0,
            locked_until: null,
            locked_by: null,
            last_error: null,
            created_at: running.ctx.clock.now(),
          })),
        )
        .execute();
      for (let i = 0; i < 400 && ran.length < refs.length; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      await Promise.all(workers.map((worker) => worker.drain()));
      expect([...ran].sort()).toEqual([...refs].sort());
      expect(await db().selectFrom("job").select("id").execute()).toEqual([]);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await Promise.all(databases.map((database) => database.close()));
    }
  });
  it.runIf(backend === "postgres")("polls an empty queue from one worker process at a time, the others waiting for the turn without a statement", async () => {
    const statements = statementCounter();
    const { started, handlers, release } = heldSteps();
    /** The backends holding the turn and those waiting for it. */
    const turn = async () =>
      (
        await sql<{ granted: boolean; n: number }>`select granted, count(*)::int as n from pg_locks
          where locktype = 'advisory' and objid = ${POLLING_LOCK} and database = (select oid from pg_database where datname = current_database())
          group by granted order by granted`.execute(db())
      ).rows;
    const databases = [0, 1].map(() => openDatabase(running.ctx.config.databaseUrl));
    // One loop each: a process gives the turn up once all its loops are at work.
    const workers = databases.map((database) =>
      startWorker({ ...running.ctx, database: { ...database, db: database.db.withPlugin(statements.plugin) } }, handlers, 1),
    );
    try {
      await Promise.all(workers.map((worker) => worker.drain()));
      for (let i = 0; i < 200 && (await turn()).length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(await turn()).toEqual([
        { granted: false, n: 1 },
        { granted: true, n: 1 },
      ]);
      statements.n = 0;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      // One poll every 250 ms: eight in two seconds (sixteen if each polled), fewer on a slow machine.
      expect(statements.n).toBeLessThanOrEqual(10);
      // The process at work gives the turn up: the other polls at once and takes the next job.
      await queue("first");
      for (let i = 0; i < 400 && started.length < 1; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      await queue("second");
      for (let i = 0; i < 400 && started.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(started).toEqual(["first", "second"]);
    } finally {
      release();
      await Promise.all(workers.map((worker) => worker.drain()));
      await Promise.all(workers.map((worker) => worker.stop()));
      await Promise.all(databases.map((database) => database.close()));
    }
    // Stopped, the worker waiting for the turn waits no more and neither holds it.
    expect(await turn()).toEqual([]);
  });

  it("polls an empty queue from one loop at a time, and every loop takes jobs once they come", async () => {
    // Every statement the worker sends, counted: with no job queued, only its polls.
    const statements = statementCounter();
    const { started, handlers, release } = heldSteps();
    const worker = startWorker({ ...running.ctx, database: { ...running.ctx.database, db: db().withPlugin(statements.plugin) } }, handlers, 4);
    try {
      await worker.drain();
      statements.n = 0;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // One poll every 250 ms (four loops polling each would make sixteen); a slow machine polls less.
      expect(statements.n).toBeLessThanOrEqual(6);
      for (const ref of ["one", "two", "three", "four"]) await queue(ref);
      // A poll that finds a job hands the turn on at once: all four loops run a job together.
      for (let i = 0; i < 400 && started.length < 4; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect([...started].sort()).toEqual(["four", "one", "three", "two"]);
    } finally {
      release();
      await worker.drain();
      await worker.stop();
    }
  });
});
