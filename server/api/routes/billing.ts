import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import type { ServerContext } from "../../context";
import { type Caller, authenticate, levelOf, requireAccess } from "../../auth/caller";
import { allows } from "../../../app/common/access";
import { creditedCents } from "../../billing/invoices";
import { invoicePdf } from "../../billing/invoice-pdf";
import { PaymentProviderError, paymentProviderOf, recordPayment } from "../../billing/payments";
import { findFirm } from "../../firm/firm-repository";
import { logEvent } from "../../jobs/event-log";
import { dispositionOf } from "../../lib/content-disposition";
import { HttpError, notFound } from "../../lib/errors";
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

  app.get<IdParams>("/api/v1/invoice/:id/lines", async (request) => {
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
}
