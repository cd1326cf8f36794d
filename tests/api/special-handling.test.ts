import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Worker, startWorker } from "../../server/queue/worker";
import { PIPELINE_JOBS } from "../../server/job-handlers";
import { DEMO, type RunningApi, api, backends, login, startApi } from "./harness";

// Special handling (/special-handling): with manual processing on, every notice waits in the
// inbox for a person, and the firm's manual-process recipients are told by mail with a link to it.

const raw = (tag: string) =>
  fs
    .readFileSync(path.join(import.meta.dirname, "../fixtures/notices/nef-district-qp-utf8.eml"), "latin1")
    .replace(/^Message-I[Dd]:.*$/m, `Message-ID: <special-${tag}@test>`);

describe.each(backends)("special handling (%s)", (backend) => {
  let running: RunningApi;
  let worker: Worker;
  let admin: ReturnType<typeof api>;

  beforeAll(async () => {
    running = await startApi({ backend });
    worker = startWorker(running.ctx, PIPELINE_JOBS, 1);
    admin = api(running.url, (await login(running.url, DEMO.admin)).access_token);
  });

  afterAll(async () => {
    await worker?.stop();
    await running?.close();
  });

  const setFirm = async (changes: Record<string, unknown>) => {
    const firm = (await admin.get("/api/v1/firm")).body as Record<string, unknown>;
    expect((await admin.put(`/api/v1/firm/${String(firm.id)}`, { ...firm, ...changes })).status).toBe(200);
  };

  const upload = async (tag: string) => {
    const answer = await admin.request("POST", "/api/v1/inbox/upload", {
      body: Buffer.from(raw(tag), "latin1"),
      headers: { "content-type": "message/rfc822" },
    });
    expect(answer.status).toBeLessThan(300);
    await worker.drain();
    const id = String((answer.body as { id: string }).id);
    const item = await running.ctx.database.db.selectFrom("inbox_item").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    const mails = await running.ctx.database.db
      .selectFrom("outbound_mail")
      .selectAll()
      .where("purpose", "=", "manual-process")
      .where("text_body", "like", `%${id}%`)
      .execute();
    return { item, mails };
  };

  it("holds every notice for a person and tells the manual-process recipients, with a link to it", async () => {
    await setFirm({ manually_process_notices: true, manual_process_emails: ["clerk@lawfirm.test", "docket@lawfirm.test"] });
    const { item, mails } = await upload("held");
    expect(item).toMatchObject({ status: "Manual", action_required: "USER", reason: "Special handling: the firm processes these notices by hand." });
    expect(mails).toHaveLength(1);
    expect(JSON.parse(mails[0]!.to_addresses)).toEqual(["clerk@lawfirm.test", "docket@lawfirm.test"]);
    expect(mails[0]!.subject).toBe(`Court notice held for manual processing: ${item.subject}`);
    expect(mails[0]!.text_body).toContain(`/inbox-items/id/${item.id}`);
  });

  it("holds without mail when nobody is to be told, and processes as usual once it is off", async () => {
    await setFirm({ manually_process_notices: true, manual_process_emails: [] });
    const quiet = await upload("quiet");
    expect(quiet.item.status).toBe("Manual");
    expect(quiet.mails).toEqual([]);

    // The recipients are people to tell, not senders to hold: with the switch off nothing is held.
    await setFirm({ manually_process_notices: false, manual_process_emails: ["txed_cmecf@txed.uscourts.gov"] });
    const usual = await upload("usual");
    expect(usual.item.status).not.toBe("Manual");
    expect(usual.mails).toEqual([]);
  });
});
