// `ecfx billing …`: the operator's side of billing (decision 111). Prices, a firm's web-services
// subscription, issuing the ended months' invoices now, and credit notes. Uses the same settings
// as `npm start` (DATABASE_URL, ECFX_DATA_DIR).
//
// Exit status: 0 done, 1 refused or failed, 2 usage error.
import { SERVICE_KINDS, formatCents, isServiceKind } from "../../app/common/billing";
import { openContext } from "../bootstrap";
import { commandConfig, usageExit } from "./command-start";
import { issueCreditNote, issueDueInvoices } from "../billing/invoices";
import { parsePriceEntry, priceList, setPrice, syncServices } from "../billing/prices";
import { logEvent } from "../queue/event-log";

const USAGE = `usage: ecfx billing prices [--set KIND=CENTS/UNIT[+DOCUMENT_CENTS] ...]
       ecfx billing services --firm ID --set FSX_WEB_SERVICES|--set=
       ecfx billing issue
       ecfx billing credit --invoice NUMBER --cents N --reason TEXT
  prices    shows the price list, or sets entries (units: SECOND … YEAR; USD cents)
  services  starts or ends a firm's web-services subscription from now
  issue     issues every invoice of an ended month that is not issued yet
  credit    issues a credit note against an invoice
`;

const flagsOf = (argv: readonly string[]) => {
  const out = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] ?? "").split(/=(.*)/s, 2) as [string, string | undefined];
    const value = inline ?? (argv[i + 1]?.startsWith("--") ? "" : (argv[++i] ?? ""));
    out.set(flag, [...(out.get(flag) ?? []), value]);
  }
  return out;
};

export async function billingCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const flags = flagsOf(rest);
  if (!sub || !["prices", "services", "issue", "credit"].includes(sub)) return usageExit("billing", sub ? `unknown subcommand ${sub}` : "", USAGE);
  const entries = sub === "prices" ? (flags.get("--set") ?? []).map(parsePriceEntry) : [];
  const bad = entries.find((e) => typeof e === "string");
  if (typeof bad === "string") return usageExit("billing", bad, USAGE);
  const config = commandConfig();
  if (!config) return 1;
  const ctx = await openContext(config);
  const db = ctx.database.db;
  const now = ctx.clock.now();
  try {
    if (sub === "prices") {
      for (const entry of entries) if (typeof entry !== "string") await setPrice(db, entry, now);
      for (const p of await priceList(db, config)) {
        const doc = p.per_document_cents ? ` + ${formatCents(p.per_document_cents)} per document` : "";
        process.stdout.write(`${p.service_kind}: ${formatCents(p.amount_cents)} per ${p.time_unit}${doc}\n`);
      }
      return 0;
    }
    if (sub === "services") {
      const firmId = Number(flags.get("--firm")?.[0]);
      const wanted = (flags.get("--set")?.[0] ?? "").split(",").filter(Boolean);
      if (!Number.isInteger(firmId) || firmId <= 0 || !flags.has("--set")) return usageExit("billing", "services needs --firm ID and --set", USAGE);
      if (wanted.some((k) => k !== "FSX_WEB_SERVICES" || !isServiceKind(k)))
        return usageExit("billing", `only FSX_WEB_SERVICES is set here (${SERVICE_KINDS.join(", ")} come with the features)`, USAGE);
      const changed = await syncServices(
        db,
        config,
        firmId,
        ["FSX_WEB_SERVICES"],
        ["FSX_WEB_SERVICES"].filter((k) => wanted.includes(k)) as ["FSX_WEB_SERVICES"],
        now,
      );
      await logEvent(db, {
        firmId,
        level: "AUDIT",
        event: "configuration changed",
        detail: `Services started: ${changed.started.join(", ") || "—"}; ended: ${changed.ended.join(", ") || "—"}`,
        at: now,
      });
      process.stdout.write(`started: ${changed.started.join(", ") || "none"}; ended: ${changed.ended.join(", ") || "none"}\n`);
      return 0;
    }
    if (sub === "issue") {
      process.stdout.write(`${await issueDueInvoices(db, now)} invoices issued\n`);
      return 0;
    }
    const number = Number(flags.get("--invoice")?.[0]);
    const cents = Number(flags.get("--cents")?.[0]);
    const reason = flags.get("--reason")?.[0]?.trim() ?? "";
    if (!Number.isInteger(number) || !Number.isInteger(cents) || cents <= 0 || !reason)
      return usageExit("billing", "credit needs --invoice, --cents and --reason", USAGE);
    const invoice = await db.selectFrom("invoice").select(["id", "firm_id"]).where("number", "=", number).where("kind", "=", "INVOICE").executeTakeFirst();
    if (!invoice) {
      process.stderr.write(`ecfx billing: no invoice ${number}\n`);
      return 1;
    }
    try {
      const note = await issueCreditNote(db, invoice.id, cents, reason, now);
      await logEvent(db, {
        firmId: invoice.firm_id,
        level: "AUDIT",
        event: "credit note issued",
        detail: `Credit note ${note.number} on invoice ${number}: ${formatCents(cents)}, ${reason}`,
        at: now,
      });
      process.stdout.write(`credit note ${note.number}: ${formatCents(-cents)}\n`);
      return 0;
    } catch (error) {
      process.stderr.write(`ecfx billing: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  } finally {
    await ctx.database.close();
  }
}
