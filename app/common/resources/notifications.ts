import { z } from "zod";
import { DELIVERY_METHODS, NOTIFICATION_CADENCES } from "../firm-schema";
import { domainList, emailList, requiredText } from "../validation";
import { name, optionalId, optionalText } from "./schema-parts";
import { type FieldDef, defineResource } from "./types";

// Who is told about a notice, how and when: preference groups, their e-mail templates and the
// firm's notification rules.

export { DELIVERY_METHODS, NOTIFICATION_CADENCES };
export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];
export type NotificationCadence = (typeof NOTIFICATION_CADENCES)[number];

/** IANA zones the runtime knows; a short list of US zones where it cannot tell. */
export const TIME_ZONES: readonly string[] = (() => {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  const zones = intl.supportedValuesOf?.("timeZone") ?? [];
  return zones.length ? ["UTC", ...zones.filter((z) => z !== "UTC")] : ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "UTC"];
})();

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const timeOfDay = () =>
  z
    .string()
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "errors:invalidTime")
    .optional()
    .or(z.literal("").transform(() => undefined));

const created: FieldDef = { name: "created_at", kind: "date", computed: true };

export const preferenceGroups = defineResource({
  key: "preference-groups",
  audited: true,
  resource: "timekeeper_group",
  accessKey: "timekeeperGroupAccess",
  apiPath: "/api/v1/timekeeper-group",
  page: { titleKey: "pages.preferenceGroups", drawer: "notices", icon: "adjustments" },
  titleField: "name",
  schema: z.object({
    name: name(),
    time_zone: requiredText(64).refine(isTimeZone, "errors:invalidTimeZone"),
    delivery_method: z.enum(DELIVERY_METHODS).default("INHERIT_METHOD"),
    notification_cadence: z.enum(NOTIFICATION_CADENCES).default("INHERIT_CADENCE"),
    email_template_id: optionalId(),
    timekeeper_ids: z.array(z.string().min(1)).default([]),
    daily_cadence_delivery_time: timeOfDay(),
    receive_daily_activity_report: z.boolean().default(false),
  }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "time_zone", kind: "select", options: TIME_ZONES, required: true, leadingOption: "firmTimeZone" },
    { name: "delivery_method", kind: "select", options: DELIVERY_METHODS },
    { name: "notification_cadence", kind: "select", options: NOTIFICATION_CADENCES },
    { name: "email_template_id", kind: "reference", reference: "templates" },
    { name: "timekeeper_ids", kind: "references", reference: "timekeepers" },
    { name: "daily_cadence_delivery_time", kind: "text" },
    { name: "receive_daily_activity_report", kind: "boolean" },
    created,
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "delivery_method", sortable: true, filter: "select" },
    { field: "notification_cadence", sortable: true, filter: "select" },
    { field: "time_zone", sortable: true, filter: "text" },
    { field: "daily_cadence_delivery_time", sortable: true },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: { notMapped: { field: "timekeeper_ids", labelKey: "resources:preference-groups.notMapped" } },
  wizard: [
    { key: "group", fields: ["name", "time_zone"] },
    {
      key: "delivery",
      fields: ["delivery_method", "notification_cadence", "email_template_id", "daily_cadence_delivery_time", "receive_daily_activity_report"],
    },
    { key: "members", fields: ["timekeeper_ids"] },
  ],
});

export const templates = defineResource({
  key: "templates",
  audited: true,
  resource: "email_template",
  accessKey: "emailTemplateAccess",
  apiPath: "/api/v1/email-template",
  page: { titleKey: "pages.templates", drawer: "notices", icon: "template" },
  titleField: "name",
  schema: z.object({ name: name(), template: requiredText(100_000) }),
  // The record page shows the template rendered (its preview section), not its source.
  fields: [{ name: "name", kind: "text", required: true }, { name: "template", kind: "textarea", required: true, filterable: false, internal: true }, created],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: {},
  wizard: [{ key: "template", fields: ["name", "template"] }],
  editPath: (id) => `/templates/edit/${encodeURIComponent(id)}`,
  sections: ["templatePreview"],
});

export const notificationRules = defineResource({
  key: "notification-rule",
  audited: true,
  resource: "notification_rule",
  accessKey: "notificationRuleAccess",
  apiPath: "/api/v1/notification-rule",
  page: { titleKey: "pages.notificationRules", drawer: "notices", icon: "bellRinging" },
  titleField: "name",
  schema: z.object({
    name: name(),
    // The rule's condition: words the docket text must contain; empty means every notice.
    template: optionalText(500),
    include_emails: emailList().default([]),
    exclude_emails: emailList().default([]),
  }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "template", kind: "text" },
    { name: "include_emails", kind: "emails" },
    { name: "exclude_emails", kind: "emails" },
    created,
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "template", sortable: true, filter: "text" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: {},
  wizard: [{ key: "rule", fields: ["name", "template", "include_emails", "exclude_emails"] }],
  crossCheck: {
    fields: ["include_emails", "exclude_emails"],
    check: (v) =>
      (Array.isArray(v.include_emails) ? v.include_emails.length : 0) + (Array.isArray(v.exclude_emails) ? v.exclude_emails.length : 0) > 0
        ? null
        : { include_emails: "errors:atLeastOneEmail" },
  },
});

export const autoCaseCreation = defineResource({
  key: "auto-case-creation",
  audited: true,
  resource: "auto_case_creation",
  accessKey: "firmAccess",
  apiPath: "/api/v1/auto-case-creation",
  page: { titleKey: "pages.autoCaseCreation", drawer: "firm", icon: "wand" },
  titleField: "name",
  schema: z.object({
    name: name(),
    party_email_domains: domainList().default([]),
    matter_id: optionalId(),
    timekeepers: z.array(z.string().min(1)).default([]),
    assignment_maintenance: z.enum(["INITIAL_ONLY", "ADD_NEW"]).default("INITIAL_ONLY"),
    assignments_ignore_import_deletion: z.boolean().default(false),
  }),
  fields: [
    { name: "name", kind: "text", required: true },
    { name: "party_email_domains", kind: "emails", hintKey: "wizard:domainsHint" },
    { name: "matter_id", kind: "reference", reference: "matters" },
    { name: "timekeepers", kind: "references", reference: "timekeepers" },
    { name: "assignment_maintenance", kind: "select", options: ["INITIAL_ONLY", "ADD_NEW"] },
    { name: "assignments_ignore_import_deletion", kind: "boolean" },
    created,
  ],
  columns: [
    { field: "name", sortable: true, filter: "text" },
    { field: "matter_id", filter: "reference" },
    { field: "assignment_maintenance", sortable: true, filter: "select" },
    { field: "created_at", sortable: true, filter: "dateRange" },
  ],
  defaultSort: "name",
  quickFilters: { notMapped: { field: "matter_id", labelKey: "resources:auto-case-creation.notMapped" } },
  wizard: [
    { key: "rule", fields: ["name", "party_email_domains", "timekeepers"] },
    { key: "assignment", fields: ["matter_id", "assignment_maintenance", "assignments_ignore_import_deletion"] },
  ],
  crossCheck: {
    fields: ["timekeepers", "party_email_domains"],
    check: (v) =>
      (Array.isArray(v.timekeepers) && v.timekeepers.length > 0) || (Array.isArray(v.party_email_domains) && v.party_email_domains.length > 0)
        ? null
        : { party_email_domains: "errors:timekeeperOrDomain" },
  },
});
