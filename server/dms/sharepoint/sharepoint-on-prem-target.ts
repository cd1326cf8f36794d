import { DmsTargetError } from "../dms-target";
import type { VendorContext, VendorTarget } from "../vendor-target";
import { parseLibraryUrl } from "./library-url";
import { RestApi } from "./rest-api";
import { RestLibrary } from "./rest-library";
import { hostsPurpose } from "../vendor-http";
import { sharePointWire } from "./sharepoint-api";
import { createSharePointTarget } from "./sharepoint-target-core";
import { WindowsSignIn } from "./windows-sign-in";

// SharePoint Server (2016, 2019, Subscription Edition) in the firm's own network, through its
// REST API at the credential's base_url, signed in as a Windows service account (NTLM), which
// every SharePoint Server web application zone with Windows authentication accepts. Its hosts
// are usually private addresses: the outbound guard reaches them only inside the ranges the
// operator allows (ECFX_OUTBOUND_ALLOW). See docs/dms/sharepoint.md and decision 108.

export const SHAREPOINT_ON_PREM_KIND = "share_point_on_prem_credential";
/** SharePoint Server has no vendor-wide address: every credential names its own base_url. */
export const SHAREPOINT_ON_PREM_DEFAULT_BASE_URL = "";

/** What the console says beside the connection test: which published sources the calls are checked against. */
export const VERIFIED_AGAINST = "SharePoint Server REST reference (Microsoft Learn) and Windows sign-in (NTLM) against Apache mod_auth_gssapi with gss-ntlmssp";

export interface SharePointOnPremSettings {
  /** The Windows account: "CONTOSO\svc-ecfx", "svc-ecfx@contoso.local", or "svc-ecfx" with tenant_id its domain. */
  client_id: string;
  /** The account's password. */
  client_secret: string;
  author_field: string;
  signature: string;
  /** The account's Windows domain when client_id does not name one. */
  tenant_id: string;
  /** The library address, e.g. https://sp.contoso.local/sites/Legal/Shared%20Documents. */
  base_url: string;
  folder_creation_sync_delay: number;
  /** Whether the firm reaches this server through its ECFX agent; reported by the connection test. */
  use_agent: boolean;
  /**
   * The web application's address in the zone that uses Windows sign-in, when base_url's zone
   * signs in otherwise (SAML, forms): "https://sp-internal.contoso.local". Empty: base_url's.
   */
  fed_auth_endpoint: string | null;
}

export function createSharePointOnPremTarget(settings: SharePointOnPremSettings, ctx: VendorContext): VendorTarget {
  const fail = (text: string, cause?: unknown) => new DmsTargetError(SHAREPOINT_ON_PREM_KIND, text, false, { cause });
  let url: ReturnType<typeof parseLibraryUrl>;
  try {
    url = parseLibraryUrl(settings.base_url);
  } catch (error) {
    throw fail((error as Error).message, error);
  }
  let origin = new URL(url.origin);
  const zone = settings.fed_auth_endpoint?.trim();
  if (zone) {
    try {
      origin = new URL(new URL(zone).origin);
    } catch (error) {
      throw fail(`"${zone}" is not an address of the SharePoint web application`, error);
    }
  }
  const purpose = hostsPurpose("SharePoint Server", [origin.hostname, ...(ctx.baseUrl ? [new URL(ctx.baseUrl).hostname] : [])]);
  const wire = sharePointWire(SHAREPOINT_ON_PREM_KIND, ctx, purpose);
  const signIn = new WindowsSignIn({ account: settings.client_id, password: settings.client_secret, domain: settings.tenant_id }, origin, wire);
  const siteUrl = `${origin.origin}${url.sitePath}`;
  const api = new RestApi(siteUrl, signIn, wire);
  const { testSteps, ...target } = createSharePointTarget(SHAREPOINT_ON_PREM_KIND, settings, new RestLibrary(api, { ...url, origin: origin.origin }), (ms) =>
    ctx.sleep(ms),
  );
  const signInStep = {
    step: "Sign in",
    run: async () => {
      await signIn.signIn(new URL(`${siteUrl}/_api/web?$select=Title`));
      const route = settings.use_agent ? "use_agent is on: calls go from ECFX to the addresses ECFX_OUTBOUND_ALLOW opens" : "direct connection";
      return `Signed in to ${origin.host} as ${signIn.accountName} with Windows sign-in (NTLM) (${route})`;
    },
  };
  return { ...target, testConnection: () => testSteps(signInStep) };
}
