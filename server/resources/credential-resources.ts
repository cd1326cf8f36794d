import type { RegistryKey } from "../../app/common/resources";
import { DMS_CREDENTIAL_KEYS, DMS_CREDENTIAL_TABLES } from "../../app/common/resources/credentials";
import type { ServerExtension, UniqueRule } from "./types";

// The server-only facts of the DMS credential types (declared in app/common/resources/credentials.ts):
// each in its table, unique by name within the firm, kept while a storage policy names it. A
// changed secret makes the credential's kept OAuth token worthless: it is forgotten.

const nameUnique: UniqueRule[] = [{ fields: ["name"], messageKey: "errors:conflict" }];
const inUse = [{ table: "storage_policy", column: "dms_credential_id", messageKey: "errors:credentialInUse" }];

function credential(table: string): ServerExtension {
  return {
    table,
    search: { like: ["name"] },
    uniques: nameUnique,
    dependents: inUse,
    hooks: {
      async afterWrite(ctx, caller, id) {
        await ctx.database.db.deleteFrom("dms_credential_token").where("credential_id", "=", id).where("firm_id", "=", caller.firmId).execute();
      },
    },
  };
}

const vendorKeys = DMS_CREDENTIAL_KEYS.filter((key) => key !== "dms");

export const CREDENTIAL_EXTENSIONS: Partial<Record<RegistryKey, ServerExtension>> = {
  ...Object.fromEntries(vendorKeys.map((key) => [key, credential(DMS_CREDENTIAL_TABLES[key])])),
  // Read only: a view over every credential table.
  "dms-credentials": { table: "dms_credential_directory", writable: false, view: true, stamped: "created", search: { like: ["name"] } },
};
