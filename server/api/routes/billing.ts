import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { type Caller, authenticate, levelOf, requireAccess } from "../../auth/caller";
import { allows } from "../../../app/common/access";
import { billingSettingOf } from "../../billing/court-costs";
import type { InvoiceLines } from "../../../app/common/invoice-lines";
import { readScopeOf, walledMatterIds } from "../../resources/read-scope";
import { costRows, costsCsv, costsLedes, timeLedes, timeRows, timeTimeslips } from "../../billing/exports";
import { creditedCents } from "../../billing/invoices";
import { invoicePdf } from "../../billing/invoice-pdf";
import { PaymentProviderError, paymentProviderOf, recordPayment } from "../../billing/payments";
import { findFirm } from "../../firm/firm-repository";
import { logEvent } from "../../queue/event-log";
import { dispositionOf } from "../../lib/content-disposition";
import { HttpError, fieldErrorsOf, invalid, notFound } from "../../lib/errors";
import { message } from "../../lib/messages";
import { formatCents } from "../../../app/common/billing";

// Billing (spec §2 /billing, firmAccess; decisions 111, 112): an invoice's lines and its PDF for
// READ on the firm, paying it for FULL only, and the payment provider's signed webhook, which
// needs no session: its signature is its authority.

type IdParams = { Params: { id: string } };
const invoiceId = z.string().trim().min(1).max(100);

export function billingRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.database.db;
  const provider = paymentProviderOf(ctx.config);

  const callerFor = async (request: FastifyRequest, needed: "read" | "write") => {
    const caller = await authenticate(ctx, request);
    requireAccess(caller, "firm", needed);
    return caller;
  };

  /** The caller's firm's invoice, or 404. */
  const invoiceOf = async (caller: Caller, raw: string) => {
    const id = invoiceId.safeParse(raw);
    if (!id.success) throw notFound();
    const row = await db.selectFrom("invoice").selectAll().where("id", "=", id.data).where("firm_id", "=", caller.firmId).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  };

  const dueOf = async (invoice: { id: string; kind: string; total_cents: number }) => {
    if (invoice.kind !== "INVOICE") return { status: "ISSUED", due: 0 };
    const paid = await db.selectFrom("invoice_payment").select("paid_at").where("invoice_id", "=", invoice.id).executeTakeFirst();
    if (paid) return { status: "PAID", due: 0 };
    const due = invoice.total_cents - (await creditedCents(db, invoice.id));
    return due > 0 ? { status: "OPEN", due } : { status: "CREDITED", due: 0 };
  };

  app.get<IdParams>("/api/v1/invoice/:id/lines", async (request): Promise<InvoiceLines> => {
    const caller = await callerFor(request, "read");
    const invoice = await invoiceOf(caller, request.params.id);
    const lines = await db
      .selectFrom("invoice_line")
      .select(["position", "service_kind", "case_id", "description", "quantity", "amount_cents"])
      .where("invoice_id", "=", invoice.id)
      .orderBy("position")
      .execute();
    const { status, due } = await dueOf(invoice);
    return { lines, status, due_cents: due, can_pay: status === "OPEN" && provider !== null && allows(levelOf(caller, "firm"), "write") };
  });

  app.get<IdParams>("/api/v1/invoice/:id/pdf", async (request, reply) => {
    const caller = await callerFor(request, "read");
    const invoice = await invoiceOf(caller, request.params.id);
    const [firm, lines, corrects, state] = await Promise.all([
      findFirm(ctx.database, caller.firmId),
      db.selectFrom("invoice_line").select(["description", "quantity", "amount_cents"]).where("invoice_id", "=", invoice.id).orderBy("position").execute(),
      invoice.corrects_invoice_id ? db.selectFrom("invoice").select("number").where("id", "=", invoice.corrects_invoice_id).executeTakeFirst() : undefined,
      dueOf(invoice),
    ]);
    let bytes: Uint8Array;
    try {
      bytes = await invoicePdf({
        firmName: firm?.name ?? "",
        kind: invoice.kind,
        number: Number(invoice.number),
        month: invoice.month,
        issuedAt: Number(invoice.created_at),
        currency: invoice.currency,
        totalCents: invoice.total_cents,
        correctsNumber: corrects ? Number(corrects.number) : null,
        status: state.status,
        lines,
      });
    } catch (error) {
      request.log.error({ err: error }, "invoice PDF could not be drawn");
      throw new HttpError(500, message("errors:invoiceDownload"));
    }
    const name = `${invoice.kind === "INVOICE" ? "invoice" : "credit-note"}-${invoice.number}.pdf`;
    return reply.header("content-type", "application/pdf").header("content-disposition", dispositionOf(name, "attachment")).send(Buffer.from(bytes));
  });

  app.post<IdParams>("/api/v1/invoice/:id/pay", async (request) => {
    const caller = await callerFor(request, "write");
    const invoice = await invoiceOf(caller, request.params.id);
    const { due } = await dueOf(invoice);
    if (due <= 0) throw new HttpError(409, message("errors:invoiceNotDue"));
    const now = ctx.clock.now();
    if (!provider) throw new HttpError(503, message("errors:clientPay"));
    let session: { sessionId: string; url: string };
    try {
      session = await provider.createCheckout({
        invoiceId: invoice.id,
        invoiceNumber: Number(invoice.number),
        firmId: caller.firmId,
        amountCents: due,
        currency: "USD",
        description: `ECFX invoice ${invoice.number} (${invoice.month})`,
        successUrl: `${ctx.config.publicUrl}/billing/invoices/${encodeURIComponent(invoice.id)}?paid=1`,
        cancelUrl: `${ctx.config.publicUrl}/billing/invoices/${encodeURIComponent(invoice.id)}`,
      });
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      request.log.warn({ err: error }, "payment provider refused a checkout");
      await logEvent(db, { firmId: caller.firmId, level: "ERROR", event: "payment failed", detail: `Invoice ${invoice.number}: ${error.message}`, at: now });
      throw new HttpError(502, message("errors:clientPay"));
    }
    await db
      .insertInto("invoice_checkout")
      .values({
        session_id: session.sessionId,
        invoice_id: invoice.id,
        firm_id: caller.firmId,
        amount_cents: due,
        url: session.url,
        created_by: caller.userId,
        created_at: now,
      })
      .onConflict((oc) => oc.column("session_id").doNothing())
      .execute();
    await logEvent(db, {
      firmId: caller.firmId,
      level: "AUDIT",
      event: "payment opened",
      detail: `Invoice ${invoice.number}, ${formatCents(due)}, by ${caller.email}`,
      at: now,
    });
    return { url: session.url };
  });

  // The provider's webhook reads its body as the bytes that were signed.
  app.register(async (scope) => {
    scope.removeContentTypeParser("application/json");
    scope.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
    scope.post("/api/v1/billing/stripe/webhook", async (request, reply) => {
      if (!provider) throw notFound();
      const signature = request.headers["stripe-signature"];
      if (typeof signature !== "string" || !Buffer.isBuffer(request.body)) throw new HttpError(400, message("errors:webhookSignature"));
      let completed;
      try {
        completed = provider.completedCheckout(request.body, signature);
      } catch {
        throw new HttpError(400, message("errors:webhookSignature"));
      }
      const outcome = completed ? await recordPayment(db, provider.name, completed, ctx.clock.now()) : "ignored";
      return reply.send({ received: true, outcome });
    });
  });

  // Cost load and time exports (decision 113), and the settings they need.
  const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
  const exportQuery = z.object({
    from: day,
    to: day,
    client_id: z.string().trim().max(100).optional(),
    matter_id: z.string().trim().max(100).optional(),
    format: z.enum(["ledes", "csv", "timeslips"]).default("ledes"),
  });
  const settingsBody = z.object({
    cost_code: z.string().trim().max(20).nullable().optional(),
    law_firm_id: z.string().trim().max(20).optional(),
    review_minutes: z.record(z.string().trim().min(1).max(100), z.number().int().min(0).max(600)).optional(),
  });

  /** The export's filter, within what the caller's read scope leaves them: no matter a wall keeps them from. */
  const filterOf = async (caller: Caller, raw: unknown) => {
    const parsed = exportQuery.safeParse(raw ?? {});
    if (!parsed.success) throw invalid(fieldErrorsOf(parsed.error));
    const from = Date.parse(`${parsed.data.from}T00:00:00Z`);
    const to = Date.parse(`${parsed.data.to}T00:00:00Z`) + 86_400_000;
    if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) throw invalid({ to: [message("errors:invalidRequest")] });
    return {
      filter: {
        from,
        to,
        clientId: parsed.data.client_id || undefined,
        matterId: parsed.data.matter_id || undefined,
        walledMatterIds: await walledMatterIds(db, await readScopeOf(db, caller)),
      },
      format: parsed.data.format,
      days: `${parsed.data.from}_${parsed.data.to}`,
    };
  };

  const sendFile = (reply: FastifyReply, name: string, type: string, body: string) =>
    reply.header("content-type", `${type}; charset=utf-8`).header("content-disposition", dispositionOf(name, "attachment")).send(body);

  app.get("/api/v1/billing/settings", async (request) => {
    const caller = await callerFor(request, "read");
    return { ...(await billingSettingOf(db, caller.firmId)), can_change: allows(levelOf(caller, "firm"), "write") };
  });

  app.put("/api/v1/billing/settings", async (request) => {
    const caller = await callerFor(request, "write");
    const body = settingsBody.safeParse(request.body ?? {});
    if (!body.success) throw invalid(fieldErrorsOf(body.error));
    const before = await billingSettingOf(db, caller.firmId);
    const next = {
      cost_code: body.data.cost_code === undefined ? before.cost_code : body.data.cost_code || null,
      law_firm_id: body.data.law_firm_id ?? before.law_firm_id,
      review_minutes: body.data.review_minutes ?? before.review_minutes,
    };
    const now = ctx.clock.now();
    const row = { cost_code: next.cost_code, law_firm_id: next.law_firm_id, review_minutes: JSON.stringify(next.review_minutes), updated_at: now };
    await db
      .insertInto("billing_setting")
      .values({ firm_id: caller.firmId, ...row })
      .onConflict((oc) => oc.column("firm_id").doUpdateSet(row))
      .execute();
    await logEvent(db, {
      firmId: caller.firmId,
      level: "AUDIT",
      event: "configuration changed",
      detail: `Billing settings by ${caller.email}: ${JSON.stringify(before)} → ${JSON.stringify(next)}`,
      at: now,
    });
    return { ...next, can_change: true };
  });

  // Exports are posts: each one is written to the event log.
  app.post("/api/v1/billing/costs/export", async (request, reply) => {
    const caller = await callerFor(request, "read");
    const { filter, format, days } = await filterOf(caller, request.body);
    if (format === "timeslips") throw invalid({ format: [message("errors:invalidRequest")] });
    const setting = await billingSettingOf(db, caller.firmId);
    const rows = await costRows(db, caller.firmId, filter);
    // A cost load without a cost code cannot be imported: say so where the code is set.
    if (!setting.cost_code && rows.some((r) => !r.cost_code)) throw new HttpError(409, message("errors:costCodeRequired"));
    const body =
      format === "csv"
        ? costsCsv(rows, setting.cost_code ?? "")
        : costsLedes(rows, { lawFirmId: setting.law_firm_id || String(caller.firmId), filter, costCode: setting.cost_code ?? "" });
    await logEvent(db, {
      firmId: caller.firmId,
      level: "AUDIT",
      event: "costs exported",
      detail: `${rows.length} costs, ${days}, ${format}, by ${caller.email}`,
      at: ctx.clock.now(),
    });
    return sendFile(reply, `costload-${days}.${format === "csv" ? "csv" : "txt"}`, format === "csv" ? "text/csv" : "text/plain", body);
  });

  app.post("/api/v1/billing/time/export", async (request, reply) => {
    const caller = await callerFor(request, "read");
    const { filter, format, days } = await filterOf(caller, request.body);
    if (format === "csv") throw invalid({ format: [message("errors:invalidRequest")] });
    const setting = await billingSettingOf(db, caller.firmId);
    const rows = await timeRows(db, caller.firmId, filter);
    const body = format === "timeslips" ? timeTimeslips(rows) : timeLedes(rows, { lawFirmId: setting.law_firm_id || String(caller.firmId), filter });
    await logEvent(db, {
      firmId: caller.firmId,
      level: "AUDIT",
      event: "time exported",
      detail: `${rows.length} entries, ${days}, ${format}, by ${caller.email}`,
      at: ctx.clock.now(),
    });
    return sendFile(reply, `timeslips-${days}.${format === "timeslips" ? "csv" : "txt"}`, format === "timeslips" ? "text/csv" : "text/plain", body);
  });
}
