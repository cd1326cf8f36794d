import { defaultRolePermissions } from "../auth/permissions";
import type { Caller } from "../auth/caller";
import type { ServerContext } from "../context";
import { serverResourceByPath } from "../resources/registry";
import { create } from "../resources/repository";

/** The demo firm's cases, so the demo notices have somewhere to go. */
export const DEMO_CASES = [
  { court: "nysd", number: "1:24-cv-02231", name: "Harbor Point Capital LLC v. Meridian Trust Co.", client: 0, keepers: [0, 1] },
  { court: "nysd", number: "1:23-cv-08812", name: "In re Lumen Securities Litigation", client: 1, keepers: [1, 2] },
  { court: "cand", number: "3:24-cv-00456", name: "Martínez v. Pacific Coast Shipping Corp.", client: 2, keepers: [3] },
  { court: "cand", number: "5:22-cv-07790", name: "Sequoia Robotics, Inc. v. Brightline AI Corp.", client: 3, keepers: [3, 4] },
  { court: "txed", number: "2:24-cv-00123", name: "Peña Industries, LLC v. Bluebonnet Widgets Inc.", client: 0, keepers: [5] },
  { court: "txed", number: "6:23-cv-00318", name: "Lone Star Licensing LLC v. Harbor Point Capital LLC", client: 0, keepers: [5, 0] },
  { court: "deb", number: "24-10457", name: "In re Meridian Retail Holdings, Inc.", client: 1, keepers: [2] },
  { court: "ca9", number: "24-1187", name: "Sequoia Robotics, Inc. v. Brightline AI Corp.", client: 3, keepers: [4] },
] as const;

const JURISDICTIONS = [
  { name: "S.D.N.Y.", court: "nysd" },
  { name: "N.D. Cal.", court: "cand" },
  { name: "E.D. Tex.", court: "txed" },
  { name: "Bankr. D. Del.", court: "deb" },
  { name: "Ninth Circuit", court: "ca9" },
];
const TIMEKEEPERS = [
  ["Avery Chen", "achen@demo-law.test", "Partner"],
  ["Jordan Ellis", "jellis@demo-law.test", "Senior Associate"],
  ["Priya Raman", "praman@demo-law.test", "Partner"],
  ["Luis Ortega", "lortega@demo-law.test", "Associate"],
  ["Sam Whitfield", "swhitfield@demo-law.test", "Counsel"],
  ["Dana Brooks", "dbrooks@demo-law.test", "Paralegal"],
];
const CLIENTS = ["Harbor Point Capital LLC", "Meridian Trust Co.", "Pacific Coast Shipping Corp.", "Sequoia Robotics, Inc."];

/** Fills the demo firm through the same rules as the API (validation, search index, links). */
export async function seedDemoFirmData(ctx: ServerContext, firmId: number): Promise<void> {
  const admin = await ctx.database.db
    .selectFrom("app_user")
    .select(["id", "email", "full_name", "security_role_id"])
    .where("firm_id", "=", firmId)
    .where("email", "=", "admin@demo.ecfx.test")
    .executeTakeFirstOrThrow();
  const caller: Caller = {
    userId: admin.id,
    firmId,
    email: admin.email,
    fullName: admin.full_name,
    roleId: admin.security_role_id,
    roleName: "Administrator",
    isAdmin: true,
    permissions: defaultRolePermissions("Administrator"),
    dictionaryVersion: 0,
  };
  const add = async (segment: string, body: Record<string, unknown>) => String((await create(ctx, caller, serverResourceByPath(segment)!, body)).id);

  const jurisdictions = new Map<string, string>();
  for (const j of JURISDICTIONS) jurisdictions.set(j.court, await add("jurisdiction", { name: j.name, ecfx_jurisdictions: [j.court] }));
  const keepers: string[] = [];
  for (const [i, [name, email, title]] of TIMEKEEPERS.entries()) {
    keepers.push(await add("timekeeper", { full_name: name, email, title, unique_key: `TK-${100 + i}`, is_attorney: title !== "Paralegal", billable: true }));
  }
  const clients: string[] = [];
  for (const [i, name] of CLIENTS.entries()) clients.push(await add("client", { name, unique_key: `C-${1001 + i}`, open_date: "2023-01-15" }));
  // Who hears of the demo notices, and where they are filed: the whole job, done on first start.
  await add("timekeeper-group", {
    name: "Litigation — realtime",
    time_zone: "America/New_York",
    delivery_method: "PDF",
    notification_cadence: "REALTIME",
    timekeeper_ids: keepers.slice(0, 4),
  });
  await add("timekeeper-group", {
    name: "Morning digest",
    time_zone: "America/Los_Angeles",
    delivery_method: "WEB_LINK",
    notification_cadence: "DAILY",
    daily_cadence_delivery_time: "07:00",
    receive_daily_activity_report: true,
    timekeeper_ids: keepers.slice(4),
  });
  await add("notification-rule", { name: "Orders to docketing", template: "ORDER", include_emails: ["docketing@demo-law.test"] });
  const store = await add("generic-credential", { name: "Firm file store", field: "demo-firm" });
  const policy = await add("storage-policy", {
    name: "Firm documents",
    dms_credential_id: store,
    store_documents: true,
    store_email: "pdf",
    document_path: "{{client.name}}/{{matter.name}}/{{case.case_number}}",
    document_name: "{{envelope.date}} {{#if document}}{{document.name}}{{else}}Notice{{/if}}",
  });
  await ctx.database.db.updateTable("firm").set({ storage_policy_id: policy }).where("id", "=", firmId).execute();

  for (const [i, c] of DEMO_CASES.entries()) {
    const matter = await add("matter", { name: c.name, unique_key: `M-${2001 + i}`, client_id: clients[c.client] });
    await add("case", {
      name: c.name,
      case_number: c.number,
      matter_id: matter,
      jurisdiction_id: jurisdictions.get(c.court),
      assigned_timekeepers: c.keepers.map((k) => keepers[k]),
    });
  }
  await add("ignored-case", { name: "1:19-cv-11111", ecfx_jurisdiction_id: "nysd" });
}
