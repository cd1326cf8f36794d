import { DmsTargetError } from "../dms-target";
import type { VendorContext, VendorTarget } from "../vendor-target";
import { FedAuthTokens } from "./fed-auth";
import { parseLibraryUrl } from "./library-url";
import { RestApi } from "./rest-api";
import { RestLibrary } from "./rest-library";
import { type CallOptions, hostsPurpose } from "../guarded-call";
import { createSharePointTarget } from "./sharepoint-target-core";

// SharePoint Server (2016, 2019, Subscription Edition) in the firm's own network, through its
// REST API at the credential's base_url, signed in at its fed_auth_endpoint. Its hosts are
// usually private addresses: the outbound guard reaches them only inside the ranges the operator
// allows (ECFX_OUTBOUND_ALLOW). See docs/dms/sharepoint.md.

export const SHAREPOINT_ON_PREM_KIND = "share_point_on_prem_credential";
/** SharePoint Server has no vendor-wide address: every credential names its own base_url. */
export const SHAREPOINT_ON_PREM_DEFAULT_BASE_URL = "";

export interface SharePointOnPremSettings {
  client_id: string;
  client_secret: string;
  author_field: string;
  signature: string;
  /** The relying party SharePoint is known by in the federation service (e.g. urn:sharepoint:contoso); the site's origin when empty. */
  tenant_id: string;
  /** The library address, e.g. https://sp.contoso.local/sites/Legal/Shared%20Documents. */
  base_url: string;
  folder_creation_sync_delay: number;
  /** Whether the firm reaches this server through its ECFX agent; reported by the connection test. */
  use_agent: boolean;
  /** The federation service's token endpoint, e.g. https://adfs.contoso.local/adfs/oauth2/token. */
  fed_auth_endpoint: string;
}

const hostOf = (url: string) => {
  try {
    return [new URL(url).hostname];
  } catch {
    return [];
  }
};

export function createSharePointOnPremTarget(settings: SharePointOnPremSettings, ctx: VendorContext): VendorTarget {
  let url: ReturnType<typeof parseLibraryUrl>;
  try {
    url = parseLibraryUrl(settings.base_url);
  } catch (error) {
    throw new DmsTargetError(SHAREPOINT_ON_PREM_KIND, (error as Error).message, false, { cause: error });
  }
  const purpose = hostsPurpose("SharePoint Server", [url.host, ...hostOf(settings.fed_auth_endpoint), ...(ctx.baseUrl ? hostOf(ctx.baseUrl) : [])]);
  const call: CallOptions = { guard: ctx.guard, purpose, timeoutMs: ctx.timeoutMs, kind: SHAREPOINT_ON_PREM_KIND };
  const tokens = new FedAuthTokens(settings, settings.tenant_id.trim() || url.origin, ctx, call);
  const api = new RestApi(`${url.origin}${url.sitePath}`, tokens, call, ctx);
  const { testSteps, ...target } = createSharePointTarget(SHAREPOINT_ON_PREM_KIND, settings, new RestLibrary(api, url, () => ctx.now()), (ms) => ctx.sleep(ms));
  const signIn = {
    step: "Sign in",
    run: async () => {
      const token = await tokens.renew();
      const how = token.extra?.scheme === "fedauth" ? "a FedAuth cookie" : "an access token";
      const route = settings.use_agent ? "use_agent is on: calls go from ECFX to the addresses ECFX_OUTBOUND_ALLOW opens" : "direct connection";
      return `Signed in as ${settings.client_id} at ${new URL(settings.fed_auth_endpoint).host} with ${how} (${route})`;
    },
  };
  return { ...target, testConnection: () => testSteps(signIn) };
}
