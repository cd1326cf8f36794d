import type { ServerContext } from "../context";

/** What a digest or a report says about one inbox item. */
export interface NoticeSummary {
  id: string;
  subject: string;
  status: string;
  caseId: string | null;
  caseName: string;
  caseNumber: string;
  description: string;
  docketText: string;
  createdAt: number;
}

/** One line's title: "[2:24-cv-00123] Peña v. Bluebonnet — Motion to Dismiss", else the subject. */
export function summaryTitle(summary: NoticeSummary): string {
  const title = [summary.caseName, summary.description].filter(Boolean).join(" — ");
  return (summary.caseNumber ? `[${summary.caseNumber}] ` : "") + (title || summary.subject);
}

/** The items with their case and envelope, in the order they arrived. */
export async function loadNoticeSummaries(
  ctx: ServerContext,
  query: { ids: string[] } | { firmId: number; from: number; to: number },
): Promise<NoticeSummary[]> {
  let select = ctx.database.db
    .selectFrom("inbox_item")
    .leftJoin("envelope", "envelope.inbox_item_id", "inbox_item.id")
    .leftJoin("court_case", "court_case.id", "inbox_item.case_id")
    .select([
      "inbox_item.id",
      "inbox_item.subject",
      "inbox_item.status",
      "inbox_item.case_id",
      "inbox_item.created_at",
      "court_case.name as case_name",
      "court_case.case_number",
      "envelope.name as description",
      "envelope.docket_text",
    ]);
  if ("ids" in query) {
    if (query.ids.length === 0) return [];
    select = select.where("inbox_item.id", "in", query.ids);
  } else {
    select = select
      .where("inbox_item.firm_id", "=", query.firmId)
      .where("inbox_item.created_at", ">=", query.from)
      .where("inbox_item.created_at", "<", query.to)
      .where("inbox_item.hidden", "=", 0);
  }
  const rows = await select.orderBy("inbox_item.created_at").orderBy("inbox_item.id").execute();
  return rows.map((r) => ({
    id: r.id,
    subject: r.subject,
    status: r.status,
    caseId: r.case_id,
    caseName: r.case_name ?? "",
    caseNumber: r.case_number ?? "",
    description: r.description ?? "",
    docketText: r.docket_text ?? "",
    createdAt: r.created_at,
  }));
}
