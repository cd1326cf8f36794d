import nodemailer from "nodemailer";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_INBOX } from "../../server/seed/demo";
import { PG_URL } from "./harness";
import { type Notice, type Product, TestBed, batchOf, expectEachOnce, freePort, killGroup, settled } from "./product-processes";

// Several machines on one PostgreSQL database, as compose.yaml runs them: two APIs, three workers
// and two SMTP listeners, each a process of its own. 150 notices go to both listeners; in the
// middle a worker and a listener are killed with SIGKILL. Every notice a listener acknowledged
// must be processed once, its documents filed once and its recipients mailed once: the queue
// hands each job to one worker (FOR UPDATE SKIP LOCKED), and the dead worker's jobs pass to the
// others when its lease runs out.

const TOTAL_BATCHES = 50; // three notices each: 150
const KILL_AFTER = 60;
/** Short, so the dead worker's jobs are taken over within the test. */
const LEASE_SECONDS = "10";

describe.skipIf(!PG_URL)("several machines on one PostgreSQL database", () => {
  const bed = new TestBed("machines");
  afterAll(() => bed.close());

  it("process every acknowledged notice once, file it once and mail it once, with a worker and a listener killed", async () => {
    const shared = {
      ...(await bed.start("postgres", "Machines-Test-Passw0rd")),
      ECFX_HOST: "127.0.0.1",
      ECFX_JOB_LEASE_SECONDS: LEASE_SECONDS,
    };
    const processes: Product[] = [];
    const start = (env: Record<string, string>, ready: string) => {
      const product = bed.spawn({ ...shared, ...env });
      processes.push(product);
      return product.waitFor(ready, 120_000).then(() => product);
    };
    const smtpPorts = [await freePort(), await freePort()];
    // They start together: the first to take the start-up lock migrates and seeds, the others wait.
    const [, , ...rest] = await Promise.all([
      start({ ECFX_ROLES: "api", ECFX_API_PORT: String(await freePort()) }, "ECFX API on"),
      start({ ECFX_ROLES: "api", ECFX_API_PORT: String(await freePort()) }, "ECFX API on"),
      ...[0, 1, 2].map(() => start({ ECFX_ROLES: "worker" }, "ECFX worker running")),
      ...smtpPorts.map((port) => start({ ECFX_ROLES: "smtp", ECFX_SMTP_PORT: String(port), ECFX_SMTP_HOST: "127.0.0.1" }, "SMTP inbox on port")),
    ]);
    const [doomedWorker, , , doomedListener] = rest as Product[];

    // A sender as a court's mail server is one: each notice to one of the two listeners (the MX
    // records of one domain), to the other when the first does not take it, and again a moment
    // later when neither does, until one acknowledges it.
    const transports = smtpPorts.map((port) => nodemailer.createTransport({ host: "127.0.0.1", port, pool: true, maxConnections: 4, ignoreTLS: true }));
    const acknowledged: string[] = [];
    let killed = false;
    const send = async (notice: Notice, first: number) => {
      for (let round = 0; round < 60; round++) {
        for (const index of [first, 1 - first]) {
          try {
            await transports[index]!.sendMail({ envelope: { from: notice.from, to: [DEMO_INBOX] }, raw: notice.raw });
            acknowledged.push(notice.messageId);
            if (!killed && acknowledged.length >= KILL_AFTER) {
              killed = true;
              await Promise.all([killGroup(doomedWorker), killGroup(doomedListener)]);
            }
            return;
          } catch {
            // Not taken: the sender tries the other listener.
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };
    const notices = Array.from({ length: TOTAL_BATCHES }, (_, batch) => batchOf(batch, "machines")).flat();
    for (let i = 0; i < notices.length; i += 20) await Promise.all(notices.slice(i, i + 20).map((notice, j) => send(notice, (i + j) % 2)));
    transports.forEach((t) => t.close());
    expect(killed).toBe(true);
    // The surviving listener took what the killed one could not.
    expect(new Set(acknowledged).size).toBe(notices.length);

    const database = bed.open();
    const left = await settled(database, 420_000);
    const outputs = processes.map(
      (product, i) => `--- process ${i} (${product.child.exitCode ?? product.child.signalCode ?? "running"}):\n${product.output().slice(-1500)}`,
    );
    expect(left, outputs.join("\n")).toBe("");
    await expectEachOnce(database, acknowledged, bed.relay, bed.dataDir);
  }, 900_000);
});
