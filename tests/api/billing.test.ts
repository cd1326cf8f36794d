import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueCreditNote, issueDueInvoices, issueInvoice } from "../../server/billing/invoices";
import { syncServices, setPrice } from "../../server/billing/prices";
import { type RunningApi, DEMO, api, backends, sessionsOf, startApi } from "./harness";
import { type LocalStripe, startLocalStripe } from "./stripe-local";

// Billing (spec §2 /billing; decisions 111, 112): monthly invoices from subscriptions and ECFX
// Track periods, numbered without gaps and never changed; their lines and PDF; paying one through
// Stripe's SDK against a local server held to Stripe's published OpenAPI description, the signed
// webhook recording the payment once; 'ClientPay Service error' when the provider fails.

const WEBHOOK_SECRET = "whsec_test_ecfx_billing";

describe.each(backends)("billing (%s)", (backend) => {
  let stripe: LocalStripe;
  let running: RunningApi;
  let firmId: number;
  let otherFirmId: number;
  const server = () => running;
  const sessionOf = sessionsOf(server);
  const as = async (email: string) => api(running.url, (await sessionOf(email)).access_token);
  const db = () => running.ctx.database.db;
  const signer = new Stripe("sk_test_signer");

  beforeAll(async () => {
    stripe = await startLocalStripe();
    running = await startApi({
      backend,
      env: { ECFX_STRIPE_SECRET_KEY: "sk_test_ecfx", ECFX_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, ECFX_STRIPE_BASE_URL: stripe.url },
    });
    firmId = (await db().selectFrom("firm").select("id").where("is_default", "=", 1).executeTakeFirstOrThrow()).id;
    otherFirmId = (await db().selectFrom("firm").select("id").where("id", "<>", firmId).executeTakeFirstOrThrow()).id;
  });

  afterAll(async () => {
    await running?.close();
    await stripe?.close();
  });

  const webhook = (payload: string, signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })) =>
    api(running.url).request("POST", "/api/v1/billing/stripe/webhook", {
      body: payload,
      headers: { "content-type": "application/json", "stripe-signature": signature },
    });

  it("bills a month from the subscriptions and tracked cases, prorated to the day in integer cents, numbered without gaps", async () => {
    const now = running.ctx.clock.now();
    // September 2026 (30 days): web services at $50.00 a month from the 16th, on the price list of that day.
    await setPrice(db(), { service_kind: "FSX_WEB_SERVICES", amount_cents: 5000, time_unit: "MONTH", per_document_cents: 0, currency: "USD" }, now);
    const sept16 = Date.UTC(2026, 8, 16);
    await syncServices(db(), running.ctx.config, firmId, ["FSX_WEB_SERVICES"], ["FSX_WEB_SERVICES"], sept16);
    // A case tracked for 10 days of September at $25.00 a month and $0.10 a document, 3 documents received.
    await db()
      .insertInto("case_tracking_period")
      .values({
        id: "period-1",
        firm_id: firmId,
        case_id: "case-tracked",
        started_at: Date.UTC(2026, 8, 1),
        ended_at: Date.UTC(2026, 8, 11),
        monthly_fee_cents: 2500,
        per_document_cents: 10,
        currency: "USD",
        documents: 3,
      })
      .execute();
    for (const n of [1, 2, 3]) {
      await db()
        .insertInto("case_docket_entry")
        .values({
          firm_id: firmId,
          case_id: "case-tracked",
          entry_key: `e${n}`,
          inbox_item_id: `item-${n}`,
          period_id: "period-1",
          published_at: Date.UTC(2026, 8, n + 1),
          created_at: Date.UTC(2026, 8, n + 1),
          checked_at: null,
        })
        .execute();
    }
    // The other firm is billed in the same run: its numbers interleave, the sequence has no gap.
    await syncServices(db(), running.ctx.config, otherFirmId, ["FSX_WEB_SERVICES"], ["FSX_WEB_SERVICES"], Date.UTC(2026, 8, 1));

    const octoberFirst = Date.UTC(2026, 9, 1, 0, 5);
    await expect(issueInvoice(db(), firmId, "2026-10", octoberFirst)).rejects.toThrow("has not ended");
    const issued = await issueDueInvoices(db(), octoberFirst);
    expect(issued).toBe(2);
    expect(await issueDueInvoices(db(), octoberFirst)).toBe(0);

    const invoices = await db().selectFrom("invoice").select(["firm_id", "number", "total_cents", "month"]).orderBy("number").execute();
    expect(invoices.map((i) => Number(i.number))).toEqual([1, 2]);
    const ours = invoices.find((i) => i.firm_id === firmId)!;
    // 15 of 30 days of $50.00 = $25.00; 10 of 30 days of $25.00 = $8.333… → $8.33; 3 × $0.10.
    expect(ours.total_cents).toBe(2500 + 833 + 30);
    expect(invoices.find((i) => i.firm_id === otherFirmId)!.total_cents).toBe(5000);
  });

  it("lists the firm's invoices through the shared table and shows one with its lines, never another firm's", async () => {
    const admin = await as(DEMO.admin);
    const list = await admin.get("/api/v1/invoice/search?sort=-number&max=10&offset=0");
    expect(list.status).toBe(200);
    expect(list.headers.get("x-total-count")).toBe("1");
    const row = list.body[0];
    expect(row).toMatchObject({ kind: "INVOICE", month: "2026-09", status: "OPEN", total_cents: 3363, due_cents: 3363, currency: "USD" });

    const lines = await admin.get(`/api/v1/invoice/${row.id}/lines`);
    expect(lines.status).toBe(200);
    expect(lines.body.lines).toEqual([
      expect.objectContaining({
        service_kind: "FSX_WEB_SERVICES",
        description: "FSX web services, $50.00 per month",
        quantity: "2026-09-16 – 2026-09-30",
        amount_cents: 2500,
      }),
      expect.objectContaining({ service_kind: "ECFX_TRACK", case_id: "case-tracked", quantity: "2026-09-01 – 2026-09-10", amount_cents: 833 }),
      expect.objectContaining({ service_kind: "ECFX_TRACK", description: "ECFX Track documents, case case-tracked", quantity: "3 × $0.10", amount_cents: 30 }),
    ]);
    expect(lines.body).toMatchObject({ status: "OPEN", due_cents: 3363, can_pay: true });

    const other = await as(DEMO.secondAdmin);
    expect((await other.get(`/api/v1/invoice/${row.id}/lines`)).status).toBe(404);
    expect((await other.get(`/api/v1/invoice/${row.id}/pdf`)).status).toBe(404);
  });

  it("downloads the invoice as a PDF", async () => {
    const admin = await as(DEMO.admin);
    const [row] = (await admin.get("/api/v1/invoice/search?max=1")).body;
    const pdf = await admin.get(`/api/v1/invoice/${row.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toContain(`invoice-${row.number}.pdf`);
    expect(Buffer.from(pdf.bytes.slice(0, 5)).toString()).toBe("%PDF-");
    // Drawn from the invoice alone: the same bytes every time.
    const again = await admin.get(`/api/v1/invoice/${row.id}/pdf`);
    expect(Buffer.from(again.bytes).equals(Buffer.from(pdf.bytes))).toBe(true);
  });

  it("has a local Stripe that refuses what Stripe's description does not allow", async () => {
    const post = (path: string, body: string) =>
      fetch(`${stripe.url}${path}`, {
        method: "POST",
        body,
        headers: { authorization: "Bearer sk_test_x", "content-type": "application/x-www-form-urlencoded" },
      });
    expect((await post("/v1/checkout/sessions", "mode=payment&success_url=https%3A%2F%2Fx.test&no_such_parameter=1")).status).toBe(400);
    expect((await post("/v1/checkout/sessions", "mode=sometimes&success_url=https%3A%2F%2Fx.test")).status).toBe(400);
    expect((await post("/v1/checkout/session", "mode=payment")).status).toBe(404);
    expect(stripe.violations).toHaveLength(3);
    stripe.violations.length = 0;
    stripe.requests.length = 0;
  });

  it("says 'ClientPay Service error' when the payment provider fails, and records nothing", async () => {
    const admin = await as(DEMO.admin);
    const [row] = (await admin.get("/api/v1/invoice/search?max=1")).body;
    stripe.failNext(402);
    const failed = await admin.post(`/api/v1/invoice/${row.id}/pay`);
    expect(failed.status).toBe(502);
    expect(failed.body.message).toBe("ClientPay Service error");
    expect(await db().selectFrom("invoice_checkout").selectAll().execute()).toEqual([]);
    const logged = await db().selectFrom("event_log").select(["event", "level"]).where("firm_id", "=", firmId).where("event", "=", "payment failed").execute();
    expect(logged).toEqual([{ event: "payment failed", level: "ERROR" }]);
  });

  it("pays through a Checkout Session the SDK opens, checked against Stripe's description; only FULL on the firm pays", async () => {
    const viewOnly = await as(DEMO.viewOnly);
    const admin = await as(DEMO.admin);
    const [row] = (await admin.get("/api/v1/invoice/search?max=1")).body;
    expect((await viewOnly.post(`/api/v1/invoice/${row.id}/pay`)).status).toBe(403);

    const before = stripe.requests.length;
    const paid = await admin.post(`/api/v1/invoice/${row.id}/pay`);
    expect(paid.status).toBe(200);
    expect(paid.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const request = stripe.requests.at(-1)!;
    expect(stripe.requests.length).toBe(before + 1);
    expect(request).toMatchObject({
      method: "post",
      path: "/v1/checkout/sessions",
      params: {
        mode: "payment",
        client_reference_id: row.id,
        line_items: [{ quantity: "1", price_data: { currency: "usd", unit_amount: "3363" } }],
      },
    });
    expect(stripe.violations).toEqual([]);
    // Asking again while the session is open opens no second one.
    const again = await admin.post(`/api/v1/invoice/${row.id}/pay`);
    expect(again.body.url).toBe(paid.body.url);
    expect(stripe.sessions.size).toBe(1);
  });

  it("marks the invoice paid through the signed webhook, once, whatever is replayed or forged", async () => {
    const admin = await as(DEMO.admin);
    const [row] = (await admin.get("/api/v1/invoice/search?max=1")).body;
    const [sessionId] = [...stripe.sessions.keys()];
    const event = stripe.completedEvent(sessionId!);
    expect(stripe.violations).toEqual([]);

    const forged = await webhook(event, signer.webhooks.generateTestHeaderString({ payload: event, secret: "whsec_someone_else" }));
    expect(forged.status).toBe(400);
    expect((await admin.get(`/api/v1/invoice/${row.id}`)).body.status).toBe("OPEN");

    const first = await webhook(event);
    expect(first.status).toBe(200);
    expect(first.body.outcome).toBe("recorded");
    const replay = await webhook(event);
    expect(replay.body.outcome).toBe("already");
    // A second event for the same session (Stripe delivers at least once) records nothing either.
    const second = await webhook(stripe.completedEvent(sessionId!));
    expect(second.body.outcome).toBe("already");

    expect(await db().selectFrom("invoice_payment").select(["amount_cents", "currency"]).execute()).toEqual([{ amount_cents: 3363, currency: "USD" }]);
    expect((await admin.get(`/api/v1/invoice/${row.id}`)).body).toMatchObject({ status: "PAID", due_cents: 0 });
    expect((await admin.post(`/api/v1/invoice/${row.id}/pay`)).status).toBe(409);
    const events = await db().selectFrom("event_log").select("event").where("firm_id", "=", firmId).where("level", "=", "AUDIT").execute();
    expect(events.map((e) => e.event).filter((e) => e.startsWith("invoice") || e.startsWith("payment"))).toEqual([
      "payment opened",
      "payment opened",
      "invoice paid",
    ]);
  });

  it("corrects an invoice with a credit note of its own number, never by changing it", async () => {
    const other = await db().selectFrom("invoice").selectAll().where("firm_id", "=", otherFirmId).executeTakeFirstOrThrow();
    const note = await issueCreditNote(db(), other.id, 1200, "web services down two days", Date.UTC(2026, 9, 3));
    expect(note).toMatchObject({ number: 3, total_cents: -1200, created: true });
    await expect(issueCreditNote(db(), other.id, 3801, "too much", Date.UTC(2026, 9, 3))).rejects.toThrow("may still be credited");
    const unchanged = await db().selectFrom("invoice").selectAll().where("id", "=", other.id).executeTakeFirstOrThrow();
    expect(unchanged).toEqual(other);
    const otherAdmin = await as(DEMO.secondAdmin);
    const list = (await otherAdmin.get("/api/v1/invoice/search?sort=number")).body;
    expect(list.map((r: { kind: string; status: string; due_cents: number }) => [r.kind, r.status, r.due_cents])).toEqual([
      ["INVOICE", "OPEN", 3800],
      ["CREDIT_NOTE", "ISSUED", 0],
    ]);
  });
});
