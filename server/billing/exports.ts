import type { Kysely } from "kysely";
import type { DB } from "../db/schema";
import { billingSettingOf } from "./court-costs";

// The firm's cost load and time exports (decision 113): its court costs and the time it chose to
// record for reviewing notices, for a period and optionally one client or matter, as LEDES 1998B
// (the e-billing standard: pipe-delimited, 24 fields, each line ending in "[]"), as plain CSV, and
// time also in the comma-delimited slip layout Sage Timeslips' import (TSImport) reads.

export interface ExportFilter {
  from: number;
  to: number;
  clientId?: string;
  matterId?: string;
  /** Matters the reader's walls keep them out of (read-scope.ts, walledMatterIds): their rows are left out. */
  walledMatterIds: string[];
}

export const LEDES_FIELDS = [
  "INVOICE_DATE",
  "INVOICE_NUMBER",
  "CLIENT_ID",
  "LAW_FIRM_MATTER_ID",
  "INVOICE_TOTAL",
  "BILLING_START_DATE",
  "BILLING_END_DATE",
  "INVOICE_DESCRIPTION",
  "LINE_ITEM_NUMBER",
  "EXP/FEE/INV_ADJ_TYPE",
  "LINE_ITEM_NUMBER_OF_UNITS",
  "LINE_ITEM_ADJUSTMENT_AMOUNT",
  "LINE_ITEM_TOTAL",
  "LINE_ITEM_DATE",
  "LINE_ITEM_TASK_CODE",
  "LINE_ITEM_EXPENSE_CODE",
  "LINE_ITEM_ACTIVITY_CODE",
  "TIMEKEEPER_ID",
  "LINE_ITEM_DESCRIPTION",
  "LAW_FIRM_ID",
  "LINE_ITEM_UNIT_COST",
  "TIMEKEEPER_NAME",
  "TIMEKEEPER_CLASSIFICATION",
  "CLIENT_MATTER_ID",
] as const;

/** "12.30": cents as LEDES and the CSV write an amount, in integers. */
export const decimal = (cents: number) => `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`;
const ymd = (at: number) => new Date(at).toISOString().slice(0, 10).replace(/-/g, "");
const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);
/** LEDES fields carry no pipes, brackets or line breaks. */
const field = (text: string, max = 0) => {
  const clean = text.replace(/[|[\]\r\n]+/g, " ").trim();
  return max ? clean.slice(0, max) : clean;
};
/** A code for LEDES (20 characters): the record's reference id, else its unique key, else its id. */
const codeOf = (row: { reference_id: string | null; unique_key: string | null; id: string }) => field(row.reference_id || row.unique_key || row.id, 20);

export interface CostRow {
  id: string;
  kind: string;
  incurred_at: number;
  amount_cents: number;
  pages: number | null;
  description: string;
  cost_code: string | null;
  case_number: string | null;
  case_id: string | null;
  client: { id: string; code: string; name: string } | null;
  matter: { id: string; code: string; name: string } | null;
}

/** The matter and client a row is billed to, as aliases `m` and `l` name them. */
const MATTER_AND_CLIENT = [
  "m.id as matter_id",
  "m.name as matter_name",
  "m.reference_id as matter_reference",
  "m.unique_key as matter_key",
  "l.id as client_id",
  "l.name as client_name",
  "l.reference_id as client_reference",
  "l.unique_key as client_key",
] as const;

/** The client and matter a row read with MATTER_AND_CLIENT is billed to, with their codes. */
function billedTo(r: {
  client_id: string | null;
  client_name: string | null;
  client_reference: string | null;
  client_key: string | null;
  matter_id: string | null;
  matter_name: string | null;
  matter_reference: string | null;
  matter_key: string | null;
}) {
  return {
    client: r.client_id
      ? { id: r.client_id, name: r.client_name ?? "", code: codeOf({ id: r.client_id, reference_id: r.client_reference, unique_key: r.client_key }) }
      : null,
    matter: r.matter_id
      ? { id: r.matter_id, name: r.matter_name ?? "", code: codeOf({ id: r.matter_id, reference_id: r.matter_reference, unique_key: r.matter_key }) }
      : null,
  };
}

export async function costRows(db: Kysely<DB>, firmId: number, filter: ExportFilter): Promise<CostRow[]> {
  let query = db
    .selectFrom("court_cost as k")
    .leftJoin("court_case as c", "c.id", "k.case_id")
    .leftJoin("matter as m", "m.id", "k.matter_id")
    .leftJoin("client as l", "l.id", "k.client_id")
    .select([
      "k.id",
      "k.kind",
      "k.incurred_at",
      "k.amount_cents",
      "k.pages",
      "k.description",
      "k.cost_code",
      "c.case_number",
      "k.case_id",
      ...MATTER_AND_CLIENT,
    ])
    .where("k.firm_id", "=", firmId)
    .where("k.incurred_at", ">=", filter.from)
    .where("k.incurred_at", "<", filter.to);
  if (filter.clientId) query = query.where("k.client_id", "=", filter.clientId);
  if (filter.matterId) query = query.where("k.matter_id", "=", filter.matterId);
  const walled = filter.walledMatterIds;
  if (walled.length) query = query.where((eb) => eb.or([eb("k.matter_id", "is", null), eb("k.matter_id", "not in", walled)]));
  const rows = await query.orderBy("k.incurred_at").orderBy("k.id").execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    incurred_at: Number(r.incurred_at),
    amount_cents: r.amount_cents,
    pages: r.pages,
    description: r.description,
    cost_code: r.cost_code,
    case_number: r.case_number,
    case_id: r.case_id,
    ...billedTo(r),
  }));
}

export interface TimeRow {
  key: string;
  at: number;
  minutes: number;
  timekeeper: { id: string; code: string; name: string; title: string };
  case_number: string | null;
  case_id: string | null;
  client: { id: string; code: string; name: string } | null;
  matter: { id: string; code: string; name: string } | null;
}

/** The firm's minutes per notice for a timekeeper title, matched without regard to case; 0 when none. */
export const minutesFor = (table: Record<string, number>, title: string) => {
  const found = Object.entries(table).find(([t]) => t.trim().toLowerCase() === title.trim().toLowerCase());
  return found && Number.isInteger(found[1]) && found[1] > 0 ? found[1] : 0;
};

/**
 * Time for reviewing notices: each notice sent to a billable timekeeper whose title the firm gives
 * minutes to, once per notice and timekeeper, on the notice's case, matter and client.
 */
export async function timeRows(db: Kysely<DB>, firmId: number, filter: ExportFilter): Promise<TimeRow[]> {
  const setting = await billingSettingOf(db, firmId);
  if (!Object.values(setting.review_minutes).some((m) => m > 0)) return [];
  let query = db
    .selectFrom("notification as n")
    .innerJoin("timekeeper as t", "t.id", "n.timekeeper_id")
    .innerJoin("inbox_item as i", "i.id", "n.inbox_item_id")
    .leftJoin("court_case as c", "c.id", "i.case_id")
    .leftJoin("matter as m", "m.id", "c.matter_id")
    .leftJoin("client as l", "l.id", "m.client_id")
    .select((eb) => [
      "n.inbox_item_id",
      "t.id as timekeeper_id",
      "t.full_name",
      "t.title",
      "t.reference_id as timekeeper_reference",
      "t.unique_key as timekeeper_key",
      "c.id as case_id",
      "c.case_number",
      ...MATTER_AND_CLIENT,
      eb.fn.min("n.sent_at").as("at"),
    ])
    .where("n.firm_id", "=", firmId)
    .where("n.status", "=", "sent")
    .where("t.billable", "=", 1)
    .where("n.sent_at", ">=", filter.from)
    .where("n.sent_at", "<", filter.to);
  if (filter.clientId) query = query.where("l.id", "=", filter.clientId);
  if (filter.matterId) query = query.where("m.id", "=", filter.matterId);
  const walled = filter.walledMatterIds;
  if (walled.length) query = query.where((eb) => eb.or([eb("m.id", "is", null), eb("m.id", "not in", walled)]));
  const rows = await query
    .groupBy([
      "n.inbox_item_id",
      "t.id",
      "t.full_name",
      "t.title",
      "t.reference_id",
      "t.unique_key",
      "c.id",
      "c.case_number",
      "m.id",
      "m.name",
      "m.reference_id",
      "m.unique_key",
      "l.id",
      "l.name",
      "l.reference_id",
      "l.unique_key",
    ])
    .execute();
  return rows
    .map((r) => ({
      key: `${r.inbox_item_id}:${r.timekeeper_id}`,
      at: Number(r.at),
      minutes: minutesFor(setting.review_minutes, r.title),
      timekeeper: {
        id: r.timekeeper_id,
        name: r.full_name,
        title: r.title,
        code: codeOf({ id: r.timekeeper_id, reference_id: r.timekeeper_reference, unique_key: r.timekeeper_key }),
      },
      case_number: r.case_number,
      case_id: r.case_id,
      ...billedTo(r),
    }))
    .filter((r) => r.minutes > 0)
    .sort((a, b) => a.at - b.at || a.key.localeCompare(b.key));
}

/** LEDES 1998B's timekeeper classification from a title: partner, associate, of counsel, paralegal, legal assistant, other. */
export function classificationOf(title: string): string {
  const t = title.toLowerCase();
  if (/partner/.test(t)) return "PT";
  if (/associate/.test(t)) return "AS";
  if (/counsel/.test(t)) return "OC";
  if (/paralegal/.test(t)) return "PL";
  if (/legal assistant|assistant/.test(t)) return "LA";
  return "OT";
}

/** Hours with four decimals from whole minutes, in integers: 7 minutes is "0.1167". */
export const hoursOf = (minutes: number) => {
  const tenThousandths = Math.floor((minutes * 10_000 * 2 + 60) / 120);
  return `${Math.floor(tenThousandths / 10_000)}.${String(tenThousandths % 10_000).padStart(4, "0")}`;
};

interface LedesLine {
  client: string;
  matter: string;
  type: "E" | "F";
  units: string;
  unitCents: number;
  totalCents: number;
  at: number;
  taskCode: string;
  expenseCode: string;
  activityCode: string;
  timekeeperId: string;
  description: string;
  timekeeperName: string;
  classification: string;
}

/** One LEDES 1998B file: an invoice per client and matter for the period, its lines in order. */
function ledesFile(lines: LedesLine[], meta: { lawFirmId: string; filter: ExportFilter; prefix: string; description: string }): string {
  const groups = new Map<string, LedesLine[]>();
  for (const line of lines) {
    const key = `${line.client}\u0000${line.matter}`;
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  const out = ["LEDES1998B[]", `${LEDES_FIELDS.join("|")}[]`];
  const end = meta.filter.to - 1;
  let invoice = 0;
  for (const group of groups.values()) {
    invoice++;
    const number = field(`${meta.prefix}${ymd(meta.filter.from)}-${invoice}`, 20);
    const total = group.reduce((sum, l) => sum + l.totalCents, 0);
    group.forEach((l, index) => {
      out.push(
        `${[
          ymd(end),
          number,
          l.client,
          l.matter,
          decimal(total),
          ymd(meta.filter.from),
          ymd(end),
          field(meta.description, 1000),
          String(index + 1),
          l.type,
          l.units,
          "0.00",
          decimal(l.totalCents),
          ymd(l.at),
          l.taskCode,
          field(l.expenseCode, 20),
          l.activityCode,
          field(l.timekeeperId, 20),
          field(l.description, 1000),
          field(meta.lawFirmId, 20),
          decimal(l.unitCents),
          field(l.timekeeperName, 30),
          l.classification,
          "",
        ].join("|")}[]`,
      );
    });
  }
  return `${out.join("\r\n")}\r\n`;
}

/** Court costs as LEDES 1998B expenses; a cost on no matter cannot be billed to one and is left out. */
export function costsLedes(rows: CostRow[], meta: { lawFirmId: string; filter: ExportFilter; costCode: string }): string {
  const lines: LedesLine[] = rows
    .filter((r) => r.client && r.matter)
    .map((r) => ({
      client: r.client!.code,
      matter: r.matter!.code,
      type: "E",
      units: "1",
      unitCents: r.amount_cents,
      totalCents: r.amount_cents,
      at: r.incurred_at,
      taskCode: "",
      expenseCode: r.cost_code ?? meta.costCode,
      activityCode: "",
      timekeeperId: "",
      description: `${r.description}${r.case_number ? `, case ${r.case_number}` : ""}`,
      timekeeperName: "",
      classification: "",
    }));
  return ledesFile(lines, { lawFirmId: meta.lawFirmId, filter: meta.filter, prefix: "C", description: "Court costs" });
}

/** Review time as LEDES 1998B fees, at no rate: the receiving billing system prices its timekeepers. */
export function timeLedes(rows: TimeRow[], meta: { lawFirmId: string; filter: ExportFilter }): string {
  const lines: LedesLine[] = rows
    .filter((r) => r.client && r.matter)
    .map((r) => ({
      client: r.client!.code,
      matter: r.matter!.code,
      type: "F",
      units: hoursOf(r.minutes),
      unitCents: 0,
      totalCents: 0,
      at: r.at,
      // UTBMS: L120 analysis/strategy, A104 review/analyze.
      taskCode: "L120",
      expenseCode: "",
      activityCode: "A104",
      timekeeperId: r.timekeeper.code,
      description: `Review of a court notice${r.case_number ? `, case ${r.case_number}` : ""}`,
      timekeeperName: r.timekeeper.name,
      classification: classificationOf(r.timekeeper.title),
    }));
  return ledesFile(lines, { lawFirmId: meta.lawFirmId, filter: meta.filter, prefix: "T", description: "Review of court notices" });
}

const csvCell = (value: string | number) => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
const csv = (rows: (string | number)[][]) => `${rows.map((r) => r.map(csvCell).join(",")).join("\r\n")}\r\n`;

export function costsCsv(rows: CostRow[], costCode: string): string {
  return csv([
    ["date", "client", "client_name", "matter", "matter_name", "case", "kind", "description", "pages", "amount", "currency", "cost_code"],
    ...rows.map((r) => [
      isoDay(r.incurred_at),
      r.client?.code ?? "",
      r.client?.name ?? "",
      r.matter?.code ?? "",
      r.matter?.name ?? "",
      r.case_number ?? "",
      r.kind,
      r.description,
      r.pages ?? "",
      decimal(r.amount_cents),
      "USD",
      r.cost_code ?? costCode,
    ]),
  ]);
}

/** Sage Timeslips' slip import (TSImport, comma delimited): the timekeeper, client and activity nicknames, date, time spent, description. */
export function timeTimeslips(rows: TimeRow[]): string {
  return csv([
    ["Timekeeper Nickname 1", "Client Nickname 1", "Activity Nickname 1", "Transaction Date", "Time Spent", "Description"],
    ...rows.map((r) => {
      const [y, m, d] = isoDay(r.at).split("-");
      return [
        r.timekeeper.code,
        r.matter?.code ?? r.client?.code ?? "",
        "REVIEW",
        `${m}/${d}/${y}`,
        hoursOf(r.minutes),
        `Review of a court notice${r.case_number ? `, case ${r.case_number}` : ""}`,
      ];
    }),
  ]);
}
