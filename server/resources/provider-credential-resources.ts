import type { RegistryKey } from "../../app/common/resources";
import { credentialTokenStore } from "../dms/credential-tokens";
import type { ServerExtension } from "./types";

// The server-only facts of the provider credential (app/common/resources/provider-credentials.ts):
// its table, one per provider type per firm (a second one is refused, whether created or changed
// onto a type the firm has), and the kept session forgotten on every change: a new password or
// account must sign in again, not ride on the old account's session.

export const PROVIDER_CREDENTIAL_EXTENSIONS: Partial<Record<RegistryKey, ServerExtension>> = {
  "provider-credentials": {
    table: "provider_credential",
    search: { like: ["name", "username"] },
    uniques: [{ fields: ["provider_type"], messageKey: "errors:providerTypeExists" }],
    hooks: {
      async afterWrite(ctx, caller, id) {
        await credentialTokenStore(ctx, caller.firmId, id).clear();
      },
    },
  },
};
