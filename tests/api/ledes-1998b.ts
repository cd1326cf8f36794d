// A LEDES 1998B checker, written from the published field specification (LEDES 1998B Field
// Specification, LEDES Oversight Committee, rev. 8/23/2007 and 7/2014 for timekeeper
// classifications, as published by e-billing vendors): an ASCII file whose first line is
// "LEDES1998B[]", whose second names the 24 fields in order, each line ending in "[]", fields
// separated by "|". It answers every rule a line breaks; none means the file is accepted.

export const LEDES_1998B_FIELDS = [
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
];

const DATE = /^\d{8}$/;
const AMOUNT = /^-?\d{1,10}(\.\d{1,4})?$/;
const CLASSES = ["PT", "AS", "OC", "LA", "PL", "OT"];

/** Hundredths of a decimal amount ("12.3" → 1230), without floating point. */
function cents(text: string): number {
  const [whole, fraction = ""] = text.replace("-", "").split(".");
  const value = Number(whole) * 100 + Number((fraction + "00").slice(0, 2));
  return text.startsWith("-") ? -value : value;
}

function validDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const d = new Date(`${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10).replace(/-/g, "") === text;
}

export function ledes1998bErrors(file: string): string[] {
  const errors: string[] = [];
  if ([...file].some((c) => c !== "\t" && c !== "\r" && c !== "\n" && (c < " " || c > "~"))) errors.push("the file is not ASCII");
  const lines = file.split(/\r?\n/).filter((l, i, all) => l !== "" || i < all.length - 1);
  if (lines[0] !== "LEDES1998B[]") errors.push(`line 1 must be "LEDES1998B[]", is "${lines[0]}"`);
  if (lines[1] !== `${LEDES_1998B_FIELDS.join("|")}[]`) errors.push("line 2 must name the 24 fields in order, ending in []");
  const invoices = new Map<string, { total: string; date: string; lines: Set<string>; sum: number; client: string }>();
  lines.slice(2).forEach((line, index) => {
    const at = `line ${index + 3}`;
    if (!line.endsWith("[]")) return errors.push(`${at} does not end in []`);
    const f = line.slice(0, -2).split("|");
    if (f.length !== 24) return errors.push(`${at} has ${f.length} fields, not 24`);
    const v = Object.fromEntries(LEDES_1998B_FIELDS.map((name, i) => [name, f[i]!])) as Record<string, string>;
    for (const name of ["INVOICE_DATE", "BILLING_START_DATE", "BILLING_END_DATE", "LINE_ITEM_DATE"])
      if (!validDate(v[name]!)) errors.push(`${at}: ${name} "${v[name]}" is not YYYYMMDD`);
    for (const [name, max] of [
      ["INVOICE_NUMBER", 20],
      ["CLIENT_ID", 20],
      ["LAW_FIRM_MATTER_ID", 20],
      ["LINE_ITEM_NUMBER", 20],
      ["LAW_FIRM_ID", 20],
    ] as const) {
      if (!v[name]) errors.push(`${at}: ${name} is required`);
      if (v[name]!.length > max) errors.push(`${at}: ${name} is longer than ${max}`);
    }
    for (const name of ["TIMEKEEPER_ID", "LINE_ITEM_TASK_CODE", "LINE_ITEM_EXPENSE_CODE", "LINE_ITEM_ACTIVITY_CODE", "CLIENT_MATTER_ID"]) {
      if (v[name]!.length > 20) errors.push(`${at}: ${name} is longer than 20`);
    }
    if (v.TIMEKEEPER_NAME!.length > 30) errors.push(`${at}: TIMEKEEPER_NAME is longer than 30`);
    for (const name of ["INVOICE_TOTAL", "LINE_ITEM_NUMBER_OF_UNITS", "LINE_ITEM_ADJUSTMENT_AMOUNT", "LINE_ITEM_TOTAL", "LINE_ITEM_UNIT_COST"]) {
      if (!AMOUNT.test(v[name]!)) errors.push(`${at}: ${name} "${v[name]}" is not a number`);
    }
    const type = v["EXP/FEE/INV_ADJ_TYPE"]!;
    if (!["F", "E", "IF", "IE"].includes(type)) errors.push(`${at}: EXP/FEE/INV_ADJ_TYPE "${type}" is none of F, E, IF, IE`);
    if (type === "F") {
      if (!v.TIMEKEEPER_ID) errors.push(`${at}: a fee needs TIMEKEEPER_ID`);
      if (!CLASSES.includes(v.TIMEKEEPER_CLASSIFICATION!))
        errors.push(`${at}: TIMEKEEPER_CLASSIFICATION "${v.TIMEKEEPER_CLASSIFICATION}" is none of ${CLASSES.join(", ")}`);
    }
    if ((type === "F" || type === "E") && AMOUNT.test(v.LINE_ITEM_NUMBER_OF_UNITS!) && AMOUNT.test(v.LINE_ITEM_UNIT_COST!)) {
      // LINE_ITEM_TOTAL = units × unit cost + adjustment, to the cent.
      const [uw, uf = ""] = v.LINE_ITEM_NUMBER_OF_UNITS!.split(".");
      const unitsTenThousandths = BigInt(uw!) * 10000n + BigInt((uf + "0000").slice(0, 4));
      const product = unitsTenThousandths * BigInt(cents(v.LINE_ITEM_UNIT_COST!));
      const expected = Number((product + 5000n) / 10000n) + cents(v.LINE_ITEM_ADJUSTMENT_AMOUNT!);
      if (expected !== cents(v.LINE_ITEM_TOTAL!)) errors.push(`${at}: LINE_ITEM_TOTAL ${v.LINE_ITEM_TOTAL} is not units × unit cost + adjustment`);
    }
    const invoice = invoices.get(v.INVOICE_NUMBER!) ?? {
      total: v.INVOICE_TOTAL!,
      date: v.INVOICE_DATE!,
      lines: new Set<string>(),
      sum: 0,
      client: v.CLIENT_ID!,
    };
    if (invoice.lines.has(v.LINE_ITEM_NUMBER!)) errors.push(`${at}: LINE_ITEM_NUMBER ${v.LINE_ITEM_NUMBER} repeats in invoice ${v.INVOICE_NUMBER}`);
    invoice.lines.add(v.LINE_ITEM_NUMBER!);
    invoice.sum += cents(v.LINE_ITEM_TOTAL!);
    invoices.set(v.INVOICE_NUMBER!, invoice);
  });
  for (const [number, invoice] of invoices) {
    if (cents(invoice.total) !== invoice.sum) errors.push(`invoice ${number}: INVOICE_TOTAL ${invoice.total} is not the sum of its LINE_ITEM_TOTALs`);
  }
  return errors;
}
