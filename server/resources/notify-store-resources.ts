import type { RegistryKey } from "../../app/common/resources";
import { HttpError, invalid } from "../lib/errors";
import { message } from "../lib/messages";
import { templateError } from "../mail/template-engine";
import { validateStorageTemplate } from "../dms/path-template";
import { scheduleWallsRecomputation } from "../walls/apply-walls";
import { nextOrder, settleOrder } from "./preference-order";
import type { ServerExtension, UniqueRule } from "./types";
import { webhookExtension } from "./webhook-resource";

// The server-only facts of the entities that send notices out and file them, keyed by registry
// key: preference groups, templates, notification rules, auto case creation, storage policies,
// credentials, walls. Their fields are declared in app/common/resources/.

const nameUnique: UniqueRule[] = [{ fields: ["name"], messageKey: "errors:conflict" }];

/** Everything that may name a storage policy; a policy in use cannot be deleted. */
const POLICY_USERS = ["location", "practice_group", "client", "matter", "court_case", "timekeeper"].map((table) => ({
  table,
  column: "storage_policy_id",
  messageKey: "errors:storagePolicyInUse",
}));

export const NOTIFY_STORE_EXTENSIONS: Partial<Record<RegistryKey, ServerExtension>> = {
  "preference-groups": {
    table: "timekeeper_group",
    links: {
      timekeeper_ids: {
        table: "timekeeper",
        ownerColumn: "timekeeper_group_id",
        valueColumn: "id",
        inverse: true,
      },
    },
    search: { like: ["name"] },
    uniques: nameUnique,
    notMappedSql: "not exists (select 1 from timekeeper k where k.timekeeper_group_id = t.id)",
  },
  templates: {
    table: "email_template",
    search: { like: ["name"] },
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
  "notification-rule": {
    table: "notification_rule",
    search: { like: ["name", "template"] },
    uniques: nameUnique,
    dependents: [{ table: "jurisdiction_preference_rule", column: "rule_id", messageKey: "errors:inUseByJurisdictionPreferences" }],
  },
  "auto-case-creation": {
    table: "auto_case_creation",
    links: {
      timekeepers: {
        table: "auto_case_creation_timekeeper",
        ownerColumn: "rule_id",
        valueColumn: "timekeeper_id",
      },
    },
    search: { like: ["name"] },
    uniques: nameUnique,
    notMappedSql: "t.matter_id is null",
    dependents: [{ table: "jurisdiction_preference", column: "auto_case_creation_id", messageKey: "errors:inUseByJurisdictionPreferences" }],
  },
  "jurisdiction-groups": {
    table: "jurisdiction_group",
    links: {
      jurisdiction_references: {
        table: "jurisdiction_group_jurisdiction",
        ownerColumn: "group_id",
        valueColumn: "jurisdiction_id",
      },
    },
    search: { like: ["name"] },
    uniques: nameUnique,
    dependents: [{ table: "jurisdiction_preference_group", column: "group_id", messageKey: "errors:inUseByJurisdictionPreferences" }],
  },
  "jurisdiction-preferences": {
    table: "jurisdiction_preference",
    links: {
      jurisdiction_groups: { table: "jurisdiction_preference_group", ownerColumn: "preference_id", valueColumn: "group_id" },
      notification_rules: { table: "jurisdiction_preference_rule", ownerColumn: "preference_id", valueColumn: "rule_id" },
    },
    search: { like: ["name", "description"] },
    uniques: nameUnique,
    hooks: {
      async beforeInsert(ctx, caller, row) {
        return { ...row, order: await nextOrder(ctx, caller.firmId) };
      },
      async afterInsert(ctx, caller) {
        await settleOrder(ctx, caller.firmId);
      },
    },
  },
  "document-processing": {
    table: "document_processing",
    search: { like: ["name"] },
    uniques: nameUnique,
    dependents: [{ table: "jurisdiction_preference", column: "document_processing_id", messageKey: "errors:inUseByJurisdictionPreferences" }],
  },
  "storage-policies": {
    table: "storage_policy",
    search: { like: ["name"] },
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
  dms: {
    table: "generic_credential",
    search: { like: ["name", "field"] },
    uniques: nameUnique,
    dependents: [{ table: "storage_policy", column: "dms_credential_id", messageKey: "errors:credentialInUse" }],
  },
  "ethical-walls": {
    table: "ethical_wall",
    links: {
      timekeepers: {
        table: "ethical_wall_timekeeper",
        ownerColumn: "wall_id",
        valueColumn: "timekeeper_id",
      },
    },
    search: { like: ["name"] },
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
  webhooks: webhookExtension,
};
