import type { Kysely } from "kysely";
import { type ServiceKind, formatCents, isServiceKind, isTimeUnit, monthBounds, monthOf, previousMonth } from "../../app/common/billing";
import type { DB } from "../db/schema";
import { isUniqueViolation } from "../lib/errors";
import { newId } from "../lib/ids";
import { proratedCents } from "./amounts";
import { recordCost } from "./court-costs";

// Monthly invoices (decision 111): one per firm and calendar month (UTC), from the firm's service
// subscriptions and its ECFX Track periods with their documents. An invoice is written once, in one
// transaction with its lines and its number; it is never changed afterwards (a credit note, a
// document of its own with the next number, corrects it). Numbers come from one counter row,
// taken in the issuing transaction, so a rolled-back issue gives its number back: no gaps.

export const SERVICE_NAMES: Record<ServiceKind, string> = {
  FAI_TITLE_EXTRACTION: "AI title extraction",
  FSX_WEB_SERVICES: "FSX web services",
  ECFX_TRACK: "ECFX Track",
};

export interface DraftLine {
  service_kind: ServiceKind | "CREDIT";
  case_id: string | null;
  description: string;
  quantity: string;
  amount_cents: number;
}

const day = (at: number) => new Date(at).toISOString().slice(0, 10);
/** "2026-10-01 – 2026-10-31": the days a span covers, its end exclusive. */
const span = (from: number, to: number) => `${day(from)} – ${day(to - 1)}`;

/** What the firm owes for the month, line by line; nothing is written. */
export async function draftLines(db: Kysely<DB>, firmId: number, month: string): Promise<DraftLine[]> {
  const { start, end } = monthBounds(month);
  const lines: DraftLine[] = [];

  const services = await db
    .selectFrom("firm_service")
    .selectAll()
    .where("firm_id", "=", firmId)
    .where("started_at", "<", end)
    .where((eb) => eb.or([eb("ended_at", "is", null), eb("ended_at", ">", start)]))
    .orderBy("service_kind")
    .orderBy("started_at")
    .execute();
  for (const s of services) {
    // ECFX Track is priced per tracked case (the periods below); its subscription is the entitlement.
    if (!isServiceKind(s.service_kind) || s.service_kind === "ECFX_TRACK" || !isTimeUnit(s.time_unit)) continue;
    const from = Math.max(Number(s.started_at), start);
    const to = Math.min(s.ended_at === null ? end : Number(s.ended_at), end);
    const share = proratedCents(s.amount_cents, s.time_unit, Number(s.started_at), s.ended_at === null ? null : Number(s.ended_at), start, end);
    if (share.cents === 0) continue;
    lines.push({
      service_kind: s.service_kind,
      case_id: null,
      description: `${SERVICE_NAMES[s.service_kind]}, ${formatCents(s.amount_cents, s.currency)} per ${s.time_unit.toLowerCase()}`,
      quantity: span(from, to),
      amount_cents: share.cents,
    });
  }

  const periods = await db
    .selectFrom("case_tracking_period as p")
    .leftJoin("court_case as c", (j) => j.onRef("c.id", "=", "p.case_id").onRef("c.firm_id", "=", "p.firm_id"))
    .select(["p.id", "p.case_id", "p.started_at", "p.ended_at", "p.monthly_fee_cents", "p.per_document_cents", "p.currency", "c.case_number"])
    .where("p.firm_id", "=", firmId)
    .where("p.started_at", "<", end)
    .where((eb) => eb.or([eb("p.ended_at", "is", null), eb("p.ended_at", ">", start)]))
    .orderBy("c.case_number")
    .orderBy("p.started_at")
    .execute();
  for (const p of periods) {
    const caseName = p.case_number ?? p.case_id;
    const from = Math.max(Number(p.started_at), start);
    const to = Math.min(p.ended_at === null ? end : Number(p.ended_at), end);
    const fee = proratedCents(p.monthly_fee_cents, "MONTH", Number(p.started_at), p.ended_at === null ? null : Number(p.ended_at), start, end);
    if (fee.cents > 0) {
      lines.push({
        service_kind: "ECFX_TRACK",
        case_id: p.case_id,
        description: `ECFX Track, case ${caseName}, ${formatCents(p.monthly_fee_cents, p.currency)} per month`,
        quantity: span(from, to),
        amount_cents: fee.cents,
      });
    }
    const received = await db
      .selectFrom("case_docket_entry")
      .select((eb) => eb.fn.countAll<string | number>().as("n"))
      .where("firm_id", "=", firmId)
      .where("period_id", "=", p.id)
      .where("created_at", ">=", start)
      .where("created_at", "<", end)
      .executeTakeFirstOrThrow();
    const documents = Number(received.n);
    if (documents > 0 && p.per_document_cents > 0) {
      lines.push({
        service_kind: "ECFX_TRACK",
        case_id: p.case_id,
        description: `ECFX Track documents, case ${caseName}`,
        quantity: `${documents} × ${formatCents(p.per_document_cents, p.currency)}`,
        amount_cents: documents * p.per_document_cents,
      });
    }
  }
  return lines;
}

/** The next number, taken inside the caller's transaction (the row stays locked until it ends). */
async function nextNumber(trx: Kysely<DB>): Promise<number> {
  await trx
    .insertInto("invoice_counter")
    .values({ name: "invoice", last_number: 0 })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await trx
    .updateTable("invoice_counter")
    .set((eb) => ({ last_number: eb("last_number", "+", 1) }))
    .where("name", "=", "invoice")
    .returning("last_number")
    .executeTakeFirstOrThrow();
  return Number(row.last_number);
}

export interface IssuedInvoice {
  id: string;
  number: number;
  total_cents: number;
  created: boolean;
}

async function writeDocument(
  db: Kysely<DB>,
  doc: {
    firmId: number;
    kind: "INVOICE" | "CREDIT_NOTE";
    issueKey: string;
    correctsId: string | null;
    month: string;
    note: string;
    lines: DraftLine[];
    now: number;
  },
): Promise<IssuedInvoice> {
  const { start, end } = monthBounds(doc.month);
  const total = doc.lines.reduce((sum, l) => sum + l.amount_cents, 0);
  try {
    return await db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom("invoice").select(["id", "number", "total_cents"]).where("issue_key", "=", doc.issueKey).executeTakeFirst();
      if (existing) return { id: existing.id, number: Number(existing.number), total_cents: existing.total_cents, created: false };
      const id = newId();
      const number = await nextNumber(trx);
      await trx
        .insertInto("invoice")
        .values({
          id,
          firm_id: doc.firmId,
          number,
          kind: doc.kind,
          issue_key: doc.issueKey,
          corrects_invoice_id: doc.correctsId,
          month: doc.month,
          period_start: start,
          period_end: end,
          currency: "USD",
          total_cents: total,
          note: doc.note,
          created_at: doc.now,
        })
        .execute();
      if (doc.lines.length) {
        await trx
          .insertInto("invoice_line")
          .values(doc.lines.map((l, position) => ({ id: newId(), invoice_id: id, firm_id: doc.firmId, position, ...l })))
          .execute();
      }
      // A tracked case's fees are the firm's cost on that case, to pass on to its client (decision 113).
      if (doc.kind === "INVOICE") {
        for (const [position, line] of doc.lines.entries()) {
          if (!line.case_id || line.amount_cents <= 0) continue;
          await recordCost(trx, {
            firmId: doc.firmId,
            sourceKey: `invoice:${number}:${position}`,
            kind: "ECFX_TRACK",
            caseId: line.case_id,
            at: end - 1,
            cents: line.amount_cents,
            description: `${line.description} (${line.quantity}), ECFX invoice ${number}`,
          });
        }
      }
      return { id, number, total_cents: total, created: true };
    });
  } catch (error) {
    // Another worker issued the same document at the same moment: theirs stands.
    if (!isUniqueViolation(error)) throw error;
    const existing = await db.selectFrom("invoice").select(["id", "number", "total_cents"]).where("issue_key", "=", doc.issueKey).executeTakeFirstOrThrow();
    return { id: existing.id, number: Number(existing.number), total_cents: existing.total_cents, created: false };
  }
}

/**
 * Issues the firm's invoice for a month that has ended, once; a month with nothing to bill gets
 * none (null). Asking again answers the invoice already issued.
 */
export async function issueInvoice(db: Kysely<DB>, firmId: number, month: string, now: number): Promise<IssuedInvoice | null> {
  if (monthBounds(month).end > now) throw new Error(`${month} has not ended`);
  const issueKey = `invoice:${firmId}:${month}`;
  const existing = await db.selectFrom("invoice").select(["id", "number", "total_cents"]).where("issue_key", "=", issueKey).executeTakeFirst();
  if (existing) return { id: existing.id, number: Number(existing.number), total_cents: existing.total_cents, created: false };
  const lines = await draftLines(db, firmId, month);
  if (lines.length === 0) return null;
  return writeDocument(db, { firmId, kind: "INVOICE", issueKey, correctsId: null, month, note: "", lines, now });
}

/**
 * A credit note against an issued invoice: a document of its own, with the next number and a
 * negative total, never more than what the invoice still carries after earlier credits.
 */
export async function issueCreditNote(db: Kysely<DB>, invoiceId: string, cents: number, reason: string, now: number, key = newId()): Promise<IssuedInvoice> {
  if (!Number.isSafeInteger(cents) || cents <= 0) throw new Error("a credit is a positive number of cents");
  const invoice = await db.selectFrom("invoice").selectAll().where("id", "=", invoiceId).where("kind", "=", "INVOICE").executeTakeFirst();
  if (!invoice) throw new Error(`no invoice ${invoiceId}`);
  const credited = await creditedCents(db, invoiceId);
  if (credited + cents > invoice.total_cents)
    throw new Error(`invoice ${invoice.number} carries ${formatCents(invoice.total_cents - credited)} that may still be credited`);
  const lines: DraftLine[] = [
    { service_kind: "CREDIT", case_id: null, description: `Credit on invoice ${invoice.number}: ${reason}`, quantity: "1", amount_cents: -cents },
  ];
  return writeDocument(db, {
    firmId: invoice.firm_id,
    kind: "CREDIT_NOTE",
    issueKey: `credit:${key}`,
    correctsId: invoiceId,
    month: invoice.month,
    note: reason,
    lines,
    now,
  });
}

/** What credit notes took off an invoice, in cents (positive). */
export async function creditedCents(db: Kysely<DB>, invoiceId: string): Promise<number> {
  const row = await db
    .selectFrom("invoice")
    .select((eb) => eb.fn.sum<string | number | null>("total_cents").as("sum"))
    .where("corrects_invoice_id", "=", invoiceId)
    .where("kind", "=", "CREDIT_NOTE")
    .executeTakeFirstOrThrow();
  return -Number(row.sum ?? 0);
}

/**
 * Issues every invoice due: for each firm with a subscription or a tracking period, each ended
 * month from its first one. Safe to run on any number of workers at once (one issue per key).
 */
export async function issueDueInvoices(db: Kysely<DB>, now: number): Promise<number> {
  const lastMonth = previousMonth(monthOf(now));
  const firsts = await db
    .selectFrom((eb) =>
      eb
        .selectFrom("firm_service")
        .select(["firm_id", "started_at"])
        .unionAll(eb.selectFrom("case_tracking_period").select(["firm_id", "started_at"]))
        .as("s"),
    )
    .select(["s.firm_id", (eb) => eb.fn.min<number | string>("s.started_at").as("first")])
    .groupBy("s.firm_id")
    .execute();
  let issued = 0;
  for (const f of firsts) {
    for (let month = monthOf(Number(f.first)); month <= lastMonth; month = monthOf(monthBounds(month).end)) {
      const done = await issueInvoice(db, Number(f.firm_id), month, now);
      if (done?.created) issued++;
    }
  }
  return issued;
}
