import { ConfidentialClientApplication, type INetworkModule, type NetworkResponse } from "@azure/msal-node";
import { DmsTargetError } from "../dms-target";
import type { TokenSource } from "../vendor-http";
import type { StoredToken } from "../vendor-target";
import { type GraphEndpoints, LOGIN_DEFAULT_BASE_URL, loginUrl } from "./graph-endpoints";
import type { SharePointWire } from "./sharepoint-api";

// The app's own token for Microsoft Graph (client-credential grant through MSAL), kept in the
// credential's token store and renewed a minute before it expires. MSAL's network client is the
// vendors' one HTTP layer (vendor-http.ts); its discovery calls are not made (the metadata is given here).

const TOKEN_MARGIN_MS = 60_000;
const GRAPH_SCOPE = "https://graph.microsoft.com/.default";

export interface GraphAuthSettings {
  client_id: string;
  client_secret: string;
  tenant_id: string;
}

/** The OpenID metadata MSAL would otherwise fetch: fixed by Microsoft for every tenant. */
function tenantMetadata(tenant: string) {
  const base = `${LOGIN_DEFAULT_BASE_URL}/${tenant}`;
  return {
    authorityMetadata: JSON.stringify({
      token_endpoint: `${base}/oauth2/v2.0/token`,
      authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
      end_session_endpoint: `${base}/oauth2/v2.0/logout`,
      issuer: `https://login.microsoftonline.com/${tenant}/v2.0`,
      jwks_uri: `${LOGIN_DEFAULT_BASE_URL}/${tenant}/discovery/v2.0/keys`,
    }),
    cloudDiscoveryMetadata: JSON.stringify({
      tenant_discovery_endpoint: `${base}/v2.0/.well-known/openid-configuration`,
      "api-version": "1.1",
      metadata: [
        { preferred_network: "login.microsoftonline.com", preferred_cache: "login.windows.net", aliases: ["login.microsoftonline.com", "login.windows.net"] },
      ],
    }),
  };
}

/** MSAL's network client: the layer, with the time-out; a failure it cannot express is kept for the caller. */
function guardedNetwork({ http, ctx, purpose }: SharePointWire, endpoints: GraphEndpoints, failures: DmsTargetError[]): INetworkModule {
  const send = async <T>(method: string, url: string, options?: { headers?: Record<string, string>; body?: string }): Promise<NetworkResponse<T>> => {
    try {
      const response = await http.send(ctx, purpose, loginUrl(endpoints, url), { method, headers: options?.headers, body: options?.body });
      if (response.status === 429 || response.status >= 500) {
        const busy = `Microsoft sign-in is busy or unavailable (${response.status}) for the token request`;
        failures.push(await http.refusal(ctx, response, "the token request", busy));
        return { status: response.status, headers: {}, body: {} as T };
      }
      return { status: response.status, headers: Object.fromEntries(response.headers), body: ((await http.json(response)) ?? {}) as T };
    } catch (error) {
      if (error instanceof DmsTargetError) failures.push(error);
      throw error;
    }
  };
  return { sendGetRequestAsync: (url, options) => send("GET", url, options), sendPostRequestAsync: (url, options) => send("POST", url, options) };
}

/** Why MSAL refused, in the vendor's words ("AADSTS7000215: Invalid client secret provided…"). */
function msalReason(error: unknown): string {
  const { errorMessage, message } = (error ?? {}) as { errorMessage?: string; message?: string };
  const text = errorMessage || message || String(error);
  // MSAL wraps the server's words: "Error(s): 7000215 - Timestamp: … - Description: AADSTS7000215: … - Correlation ID: …".
  return (/Description: (.*?)(?: - Correlation ID|$)/s.exec(text)?.[1] ?? text).split(/\r?\n/)[0] ?? "";
}

export class GraphTokens implements TokenSource {
  constructor(
    private readonly settings: GraphAuthSettings,
    private readonly wire: SharePointWire,
    private readonly endpoints: GraphEndpoints,
  ) {}

  private get ctx() {
    return this.wire.ctx;
  }

  /** A token valid for at least another minute: the stored one, or a new one written back. */
  async current(): Promise<StoredToken> {
    const stored = await this.ctx.tokens.read();
    if (stored && stored.expiresAt - TOKEN_MARGIN_MS > this.ctx.now()) return stored;
    return this.renew();
  }

  /** Forgets the stored token (Graph said 401) and asks for a new one. */
  async renew(): Promise<StoredToken> {
    await this.ctx.tokens.clear();
    const failures: DmsTargetError[] = [];
    const app = new ConfidentialClientApplication({
      auth: {
        clientId: this.settings.client_id,
        clientSecret: this.settings.client_secret,
        authority: `${LOGIN_DEFAULT_BASE_URL}/${this.settings.tenant_id}`,
        ...tenantMetadata(this.settings.tenant_id),
      },
      system: { networkClient: guardedNetwork(this.wire, this.endpoints, failures) },
    });
    let result;
    try {
      result = await app.acquireTokenByClientCredential({ scopes: [GRAPH_SCOPE], skipCache: true });
    } catch (error) {
      const unreachable = failures[0];
      if (unreachable) throw unreachable;
      throw new DmsTargetError(this.wire.http.kind, `Token generation failed: ${msalReason(error)}`, false, { cause: error });
    }
    if (!result?.accessToken) {
      // MSAL may settle quietly on an answer it could not use (a 503); the reason is kept here.
      if (failures[0]) throw failures[0];
      throw new DmsTargetError(this.wire.http.kind, "Token generation failed: Microsoft returned no token", false);
    }
    // MSAL dates the expiry by the system clock; the store counts in the context's.
    const lifetimeMs = Math.max(0, (result.expiresOn?.getTime() ?? Date.now()) - Date.now());
    const token: StoredToken = { accessToken: result.accessToken, expiresAt: this.ctx.now() + lifetimeMs };
    await this.ctx.tokens.write(token);
    return token;
  }
}
