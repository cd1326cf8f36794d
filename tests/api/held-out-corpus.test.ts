import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CourtSimulator, startCourtSimulator } from "../../server/courts/simulator";
import { receiveMessage } from "../../server/inbox/receive";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { DEMO, type RunningApi, api, backends, login, startApi } from "./harness";

// Court and provider mail the parser was never tuned on (tests/fixtures/held-out, README there)
// goes through the pipeline as received mail: none of it ends Ignored without a person being asked
// (decision 092), and the ordinary mail beside it is ignored with its reason.

const root = path.join(import.meta.dirname, "../fixtures/held-out");
const walk = (dir: string): string[] =>
  readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) return walk(file);
      return /\.(txt|eml|html)$/.test(name) ? [file] : [];
    });

const courtMail = [...walk(path.join(root, "juriscraper")), ...walk(path.join(root, "reconstructed/court"))];
const ordinaryDir = path.join(root, "reconstructed/ordinary");
const ordinary = JSON.parse(readFileSync(path.join(ordinaryDir, "manifest.json"), "utf8")) as Record<string, string>;

// What court mail may be ignored for: it is positively something else (decision 092).
const POSITIVELY_OTHER = new Set(Object.values(ordinary));

describe.each(backends)("held-out court mail (%s)", (backend) => {
  let running: RunningApi;
  let simulator: CourtSimulator;
  let worker: Worker;
  let firmId = 0;

  beforeAll(async () => {
    simulator = await startCourtSimulator();
    running = await startApi({ backend, env: { ECFX_COURT_BASE_URL: simulator.url } });
    worker = startWorker(running.ctx, PIPELINE_JOBS, 2);
    const admin = api(running.url, (await login(running.url, DEMO.admin)).access_token);
    const firm = (await admin.get("/api/v1/firm")).body as Record<string, unknown>;
    firmId = Number(firm.id);
    expect((await admin.put(`/api/v1/firm/${firmId}`, { ...firm, error_notification_emails: ["errors@lawfirm.test"] })).status).toBe(200);
  });

  afterAll(async () => {
    await worker?.stop();
    await running?.close();
    await simulator?.close();
  });

  /** Each file received as uploaded mail is (no envelope sender: what the message says decides), and processed. */
  async function process(files: string[]): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    for (const file of files) ids.set(file, await receiveMessage(running.ctx, { firmId, raw: readFileSync(file), source: "UPLOAD", sender: "" }));
    await worker.drain();
    return ids;
  }

  it("asks a person about every court or provider message it does not file, and tells the error recipients", async () => {
    expect(courtMail.length).toBeGreaterThanOrEqual(90);
    const ids = await process(courtMail);
    const db = running.ctx.database.db;
    const items = await db.selectFrom("inbox_item").selectAll().where("firm_id", "=", firmId).execute();
    const told = new Set(
      (await db.selectFrom("outbound_mail").select("inbox_item_id").where("purpose", "=", "court-mail").execute()).map((m) => m.inbox_item_id),
    );
    const lost: string[] = [];
    for (const [file, id] of ids) {
      // The item itself, or for a notice of several dockets each of its linked items.
      const own = items.filter((i) => i.id === id || i.parent_id === id).filter((i) => i.disposition !== "Split");
      for (const item of own) {
        const asked = item.action_required === "USER" && ["Action Required", "Failed", "Manual"].includes(item.status);
        const filed = item.disposition === "Processed";
        // A repeated message or document is linked to the item that carries it.
        const linked = item.disposition === "Ignored" && item.duplicate_of_id !== null;
        const positivelyOther = item.disposition === "Ignored" && POSITIVELY_OTHER.has(item.disposition_text);
        if (!asked && !filed && !linked && !positivelyOther)
          lost.push(`${path.relative(root, file)}: ${item.status} / ${item.disposition} (${item.disposition_text})`);
        if (item.status === "Action Required" && item.reason.startsWith("A court message we could not read") && !told.has(item.id)) {
          lost.push(`${path.relative(root, file)}: error recipients not told`);
        }
      }
      if (own.length === 0) lost.push(`${path.relative(root, file)}: no item`);
    }
    expect(lost).toEqual([]);
  }, 600_000);

  it("ignores the ordinary mail beside it, and its card says why", async () => {
    const names = Object.keys(ordinary);
    const ids = await process(names.map((n) => path.join(ordinaryDir, n)));
    const rows = await running.ctx.database.db
      .selectFrom("inbox_item")
      .select(["id", "status", "disposition", "disposition_text"])
      .where("id", "in", [...ids.values()])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(names.map((n) => [n, byId.get(ids.get(path.join(ordinaryDir, n))!)])).toEqual(
      names.map((n) => [n, expect.objectContaining({ status: "Succeeded", disposition: "Ignored", disposition_text: ordinary[n] })]),
    );
  });
});
