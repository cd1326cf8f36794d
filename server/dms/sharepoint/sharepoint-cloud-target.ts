import { DmsTargetError } from "../dms-target";
import type { VendorContext, VendorTarget } from "../vendor-target";
import { GraphApi } from "./graph-api";
import { GraphTokens } from "./graph-auth";
import { GRAPH_DEFAULT_BASE_URL, graphEndpoints } from "./graph-endpoints";
import { GraphLibrary } from "./graph-library";
import { parseLibraryUrl } from "./library-url";
import { sharePointWire } from "./sharepoint-api";
import { createSharePointTarget } from "./sharepoint-target-core";

// SharePoint Online through Microsoft Graph: the app signs in with its client credentials
// (application permission Sites.ReadWrite.All or Sites.Selected), finds the library the
// credential's base_url names, files below the folders that URL names, and describes each
// document with the policy's properties. See docs/dms/sharepoint.md.

export const SHAREPOINT_CLOUD_KIND = "share_point_cloud_credential";
export const SHAREPOINT_CLOUD_DEFAULT_BASE_URL = GRAPH_DEFAULT_BASE_URL;

/** What the console says beside the connection test: which published sources the calls are checked against. */
export const VERIFIED_AGAINST = "Microsoft Graph v1.0 OpenAPI description and CSDL metadata (microsoftgraph/msgraph-metadata)";

export interface SharePointCloudSettings {
  client_id: string;
  client_secret: string;
  author_field: string;
  signature: string;
  tenant_id: string;
  /** The site or library address, e.g. https://contoso.sharepoint.com/sites/Legal/Shared%20Documents. */
  base_url: string;
  folder_creation_sync_delay: number;
}

export function createSharePointCloudTarget(settings: SharePointCloudSettings, ctx: VendorContext): VendorTarget {
  let url: ReturnType<typeof parseLibraryUrl>;
  try {
    url = parseLibraryUrl(settings.base_url);
  } catch (error) {
    throw new DmsTargetError(SHAREPOINT_CLOUD_KIND, (error as Error).message, false, { cause: error });
  }
  const endpoints = graphEndpoints(ctx, settings.base_url);
  const wire = sharePointWire(SHAREPOINT_CLOUD_KIND, ctx, endpoints.purpose);
  const tokens = new GraphTokens(settings, wire, endpoints);
  const api = new GraphApi(wire, tokens, endpoints);
  const { testSteps, ...target } = createSharePointTarget(SHAREPOINT_CLOUD_KIND, settings, new GraphLibrary(api, url), (ms) => ctx.sleep(ms));
  const signIn = {
    step: "Sign in",
    run: async () => {
      await tokens.renew();
      return `Signed in as app ${settings.client_id} of tenant ${settings.tenant_id}`;
    },
  };
  return { ...target, testConnection: () => testSteps(signIn) };
}
