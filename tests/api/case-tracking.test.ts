import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setEntitledFeatures } from "../../server/firm/entitled-features";
import { type RunningApi, DEMO, api, backends, testClock } from "./harness";
import { type TrackBed, startTrackBed } from "./track-bed";

// ECFX Track (spec §4 case tracking): subscribe, stop, resume and unsubscribe with their costs, the
// court's docket feed turned into inbox items for a tracked case only, each entry once, never for
// the stopped time; all of it only for a firm entitled to ECFX_TRACK.

const MINUTE = 60_000;

describe.each(backends)("ECFX Track case tracking (%s)", (backend) => {
  const clock = testClock();
  let bed: TrackBed;
  let running: RunningApi;
  let admin: TrackBed["admin"];
  let firmId: number;
  let caseId: string;

  beforeAll(async () => {
    bed = await startTrackBed(backend, clock);
    ({ running, admin, firmId, caseId } = bed);
  });

  afterAll(async () => {
    await bed?.close();
  });

  const sessionOf = (email: string) => bed.sessionOf(email);
  const docket = (shortDescription: string, docketNumber?: string) => bed.docket(shortDescription, docketNumber);
  const later = (minutes: number) => bed.later(minutes);

  const trackedItems = () =>
    running.ctx.database.db
      .selectFrom("inbox_item")
      .select(["id", "subject", "status", "case_id", "source", "disposition"])
      .where("firm_id", "=", firmId)
      .where("source", "=", "TRACK")
      .orderBy("created_at")
      .execute();

  const act = (action: string) => admin.post(`/api/v1/case/${caseId}/tracking`, { action });

  it("subscribes at the firm's price, receives each new entry of the case once, and bills it in the period", async () => {
    docket("Complaint"); // before the subscription: never received
    docket("Letter", "1:17-cv-09141"); // another case of the court
    const before = await admin.get(`/api/v1/case/${caseId}/tracking`);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      state: "NOT_TRACKED",
      subscribed_at: null,
      monthly_fee_cents: 2500,
      per_document_cents: 10,
      currency: "USD",
      periods: [],
      can_change: true,
    });

    clock.advance(MINUTE);
    const subscribed = await act("subscribe");
    expect(subscribed.status).toBe(200);
    expect(subscribed.body).toMatchObject({ state: "TRACKED", subscribed_at: clock.now(), stopped_at: null });
    clock.advance(MINUTE);
    docket("Notice of Appearance");
    await later(1);

    const items = await trackedItems();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ subject: "1:18-cv-03365 Chau v. Donovan et al Notice of Appearance", case_id: caseId, disposition: "Processed" });
    // The normal pipeline filed it on the case and fetched its document from the court.
    const documents = await admin.get(`/api/v1/document/list?case_id=${caseId}`);
    expect(documents.body).toEqual([expect.objectContaining({ name: "Notice of Appearance", stored: true, inbox_item_id: items[0]!.id })]);

    // The next polls read the same entry again: it is not received twice.
    await later(6);
    await later(6);
    expect(await trackedItems()).toHaveLength(1);
    const tracking = (await admin.get(`/api/v1/case/${caseId}/tracking`)).body;
    expect(tracking.periods).toEqual([
      {
        started_at: subscribed.body.subscribed_at,
        ended_at: null,
        monthly_fee_cents: 2500,
        per_document_cents: 10,
        documents: 1,
        document_cost_cents: 10,
        currency: "USD",
      },
    ]);
  });

  it("stops without further cost and resumes without the stopped time's entries", async () => {
    const stopped = await act("stop");
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ state: "STOPPED", stopped_at: clock.now() });
    clock.advance(MINUTE);
    docket("Order on Motion"); // while stopped
    await later(6);
    expect(await trackedItems()).toHaveLength(1);

    const resumed = await act("resume");
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ state: "TRACKED", stopped_at: null, resumed_at: clock.now() });
    clock.advance(MINUTE);
    docket("Memorandum of Law");
    await later(1);
    const items = await trackedItems();
    expect(items.map((i) => i.subject)).toEqual([
      "1:18-cv-03365 Chau v. Donovan et al Notice of Appearance",
      "1:18-cv-03365 Chau v. Donovan et al Memorandum of Law",
    ]);
    const periods = (await admin.get(`/api/v1/case/${caseId}/tracking`)).body.periods;
    expect(periods.map((p: { ended_at: number | null; documents: number }) => [p.ended_at === null, p.documents])).toEqual([
      [false, 1],
      [true, 1],
    ]);
    expect(periods[0].ended_at).toBe(stopped.body.stopped_at);
    expect(periods[1].started_at).toBe(resumed.body.resumed_at);
  });

  it("refuses an impossible change with 409 and says why", async () => {
    const expectRefused = async (action: string, text: string) => {
      const res = await act(action);
      expect([action, res.status, res.body.message]).toEqual([action, 409, text]);
    };
    await expectRefused("subscribe", "ECFX Track cannot subscribe this case: it is tracked.");
    await expectRefused("resume", "ECFX Track cannot resume this case: it is tracked.");
    expect((await act("stop")).status).toBe(200);
    await expectRefused("stop", "ECFX Track cannot stop this case: it is stopped.");
    const gone = await act("unsubscribe");
    expect(gone.body).toMatchObject({ state: "NOT_TRACKED", subscribed_at: null });
    await expectRefused("unsubscribe", "ECFX Track cannot unsubscribe this case: it is not tracked.");
    await expectRefused("stop", "ECFX Track cannot stop this case: it is not tracked.");
    expect((await act("pause")).status).toBe(400);
    // Unsubscribed: nothing more is received, and the periods stay for billing.
    clock.advance(MINUTE);
    docket("Scheduling Order");
    await later(6);
    expect(await trackedItems()).toHaveLength(2);
    expect((await admin.get(`/api/v1/case/${caseId}/tracking`)).body.periods.every((p: { ended_at: number | null }) => p.ended_at !== null)).toBe(true);
  });

  it("does nothing for a firm not entitled to ECFX Track: 403 with the reason, and no entries received", async () => {
    expect((await act("subscribe")).status).toBe(200);
    await later(1);
    await setEntitledFeatures(running.ctx.database, firmId, [], clock.now());
    clock.advance(MINUTE);
    docket("Answer to Complaint");
    await later(6);
    expect(await trackedItems()).toHaveLength(2);
    for (const res of [await admin.get(`/api/v1/case/${caseId}/tracking`), await act("stop")]) {
      expect(res.status).toBe(403);
      expect(res.body.message).toBe("The firm is not entitled to ECFX Track. ECFX adds it to the firm's subscription on request.");
    }
    // Entitled again, the subscription goes on: the entries of its paid period are received.
    await setEntitledFeatures(running.ctx.database, firmId, ["ECFX_TRACK"], clock.now());
    await later(6);
    expect(await trackedItems()).toHaveLength(3);
  });

  it("answers 404 for another firm's case, lets a reader see and not change", async () => {
    const second = api(running.url, (await sessionOf(DEMO.secondAdmin)).access_token);
    const secondFirm = (await second.get("/api/v1/firm")).body.id;
    await setEntitledFeatures(running.ctx.database, secondFirm, ["ECFX_TRACK"], clock.now());
    expect((await second.get(`/api/v1/case/${caseId}/tracking`)).status).toBe(404);
    expect((await second.post(`/api/v1/case/${caseId}/tracking`, { action: "stop" })).status).toBe(404);
    expect((await admin.get(`/api/v1/case/no-such-case/tracking`)).status).toBe(404);

    const viewer = api(running.url, (await sessionOf(DEMO.viewOnly)).access_token);
    const read = await viewer.get(`/api/v1/case/${caseId}/tracking`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ state: "TRACKED", can_change: false });
    expect((await viewer.post(`/api/v1/case/${caseId}/tracking`, { action: "stop" })).status).toBe(403);
    expect((await api(running.url).get(`/api/v1/case/${caseId}/tracking`)).status).toBe(401);
  });
});
