import { REGISTRY } from "../../app/shared/resources";
import { HttpError, invalid } from "../lib/errors";
import { message } from "../lib/messages";
import { templateError } from "../mail/template-engine";
import { validateStorageTemplate } from "../storage/path-template";
import { scheduleWallsRecomputation } from "../walls/apply-walls";
import type { ColumnSpec, ServerResource } from "./types";

// The server half of the entities that send notices out and file them: preference groups,
// templates, notification rules, auto case creation, storage policies, credentials, walls.

const text = (sortable = true): ColumnSpec => ({ type: "text", sortable, filterable: true });
const id = (): ColumnSpec => ({ type: "text", filterable: true });
const base = {
  id: { type: "text", filterable: true } as ColumnSpec,
  created_at: { type: "millis", sortable: true, filterable: true } as ColumnSpec,
  updated_at: { type: "millis", sortable: true } as ColumnSpec,
};
const nameUnique = [{ fields: ["name"], messageKey: "errors:conflict" }];

/** Everything that may name a storage policy; a policy in use cannot be deleted. */
const POLICY_USERS = ["location", "practice_group", "client", "matter", "court_case", "timekeeper"].map((table) => ({
  table,
  column: "storage_policy_id",
  messageKey: "errors:storagePolicyInUse",
}));

export const NOTIFY_STORE_RESOURCES: ServerResource[] = [
  {
    def: REGISTRY["preference-groups"],
    table: "timekeeper_group",
    firmOwned: true,
    writable: true,
    searchable: false,
    columns: {
      ...base,
      name: text(),
      delivery_method: text(),
      notification_cadence: text(),
      email_template_id: id(),
      daily_cadence_delivery_time: text(),
      receive_daily_activity_report: { type: "boolean", filterable: true },
      time_zone: text(),
    },
    links: {
      timekeeper_ids: {
        table: "timekeeper",
        ownerColumn: "timekeeper_group_id",
        valueColumn: "id",
        target: { table: "timekeeper", firmOwned: true },
        inverse: true,
      },
    },
    references: { email_template_id: "email_template" },
    searchFields: [],
    likeFields: ["name"],
    uniques: nameUnique,
    notMappedSql: "not exists (select 1 from timekeeper k where k.timekeeper_group_id = t.id)",
  },
  {
    def: REGISTRY.templates,
    table: "email_template",
    firmOwned: true,
    writable: true,
    searchable: false,
    columns: { ...base, name: text(), template: { type: "text" } },
    searchFields: [],
    likeFields: ["name"],
    uniques: nameUnique,
    dependents: [
      { table: "timekeeper_group", column: "email_template_id", messageKey: "errors:templateInUse" },
      { table: "firm", column: "default_email_template_id", messageKey: "errors:templateIsFirmDefault" },
    ],
    hooks: {
      async validate(_ctx, _caller, values) {
        if (typeof values.template !== "string") return;
        const error = templateError(values.template);
        if (error) throw invalid({ template: [message("errors:templateInvalid", { error })] });
      },
    },
  },
  {
    def: REGISTRY["notification-rule"],
    table: "notification_rule",
    firmOwned: true,
    writable: true,
    searchable: false,
    columns: { ...base, name: text(), template: text(), include_emails: { type: "json" }, exclude_emails: { type: "json" } },
    searchFields: [],
    likeFields: ["name", "template"],
    uniques: nameUnique,
  },
  {
    def: REGISTRY["auto-case-creation"],
    table: "auto_case_creation",
    firmOwned: true,
    writable: true,
    searchable: false,
    columns: {
      ...base,
      name: text(),
      party_email_domains: { type: "json" },
      matter_id: id(),
      assignment_maintenance: text(),
      assignments_ignore_import_deletion: { type: "boolean", filterable: true },
    },
    links: {
      timekeepers: {
        table: "auto_case_creation_timekeeper",
        ownerColumn: "rule_id",
        valueColumn: "timekeeper_id",
        target: { table: "timekeeper", firmOwned: true },
      },
    },
    references: { matter_id: "matter" },
    searchFields: [],
    likeFields: ["name"],
    uniques: nameUnique,
    notMappedSql: "t.matter_id is null",
  },
  {
    def: REGISTRY["storage-policies"],
    table: "storage_policy",
    firmOwned: true,
    writable: true,
    searchable: false,
    columns: {
      ...base,
      name: text(),
      store_documents: { type: "boolean", sortable: true, filterable: true },
      store_email: text(),
      document_path: text(false),
      document_name: text(false),
      document_properties: { type: "json" },
      additional_storage_policy_id: id(),
      dms_credential_id: id(),
    },
    references: { dms_credential_id: "generic_credential", additional_storage_policy_id: "storage_policy" },
    searchFields: [],
    likeFields: ["name"],
    uniques: nameUnique,
    hooks: {
      // A template that cannot render would only fail later, notice after notice: refuse it now.
      async validate(_ctx, _caller, values) {
        const errors: Record<string, string[]> = {};
        const check = (field: "document_path" | "document_name" | "document_properties", template: unknown) => {
          if (typeof template !== "string" || template.trim() === "") return;
          try {
            validateStorageTemplate(template, field);
          } catch (error) {
            (errors[field] ??= []).push(error instanceof Error ? error.message : String(error));
          }
        };
        check("document_path", values.document_path);
        check("document_name", values.document_name);
        for (const value of Object.values((values.document_properties ?? {}) as Record<string, unknown>)) check("document_properties", value);
        if (Object.keys(errors).length) throw invalid(errors);
      },
    },
    dependents: [
      ...POLICY_USERS,
      { table: "storage_policy", column: "additional_storage_policy_id", messageKey: "errors:storagePolicyInUse" },
      { table: "firm", column: "storage_policy_id", messageKey: "errors:storagePolicyInUse" },
    ],
  },
  {
    def: REGISTRY.dms,
    table: "generic_credential",
    firmOwned: true,
    writable: true,
    searchable: false,
    columns: { ...base, name: text(), field: text() },
    searchFields: [],
    likeFields: ["name", "field"],
    uniques: nameUnique,
    dependents: [{ table: "storage_policy", column: "dms_credential_id", messageKey: "errors:credentialInUse" }],
  },
  {
    def: REGISTRY["ethical-walls"],
    table: "ethical_wall",
    firmOwned: true,
    writable: true,
    searchable: false,
    columns: { ...base, name: text(), type: text(), matter_id: id(), client_id: id() },
    links: {
      timekeepers: {
        table: "ethical_wall_timekeeper",
        ownerColumn: "wall_id",
        valueColumn: "timekeeper_id",
        target: { table: "timekeeper", firmOwned: true },
      },
    },
    references: { matter_id: "matter", client_id: "client" },
    searchFields: [],
    likeFields: ["name"],
    uniques: nameUnique,
    hooks: {
      // Spec §6: only users without a timekeeper may manage walls — a walled person must not move one.
      async guardWrite(ctx, caller) {
        const user = await ctx.database.db.selectFrom("app_user").select("timekeeper_id").where("id", "=", caller.userId).executeTakeFirst();
        if (user?.timekeeper_id) throw new HttpError(403, message("errors:wallsNeedNoTimekeeper"));
      },
      async afterWrite(ctx, caller) {
        await scheduleWallsRecomputation(ctx, caller.firmId);
      },
    },
  },
];
