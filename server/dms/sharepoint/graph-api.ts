import { Client, type Context, ResponseType } from "@microsoft/microsoft-graph-client";
import type { Response } from "undici";
import { DmsTargetError } from "../dms-target";
import type { GraphTokens } from "./graph-auth";
import type { GraphEndpoints } from "./graph-endpoints";
import { type ApiRequest, SharePointApi, type SharePointWire } from "./sharepoint-api";

// Microsoft Graph through the Graph SDK, whose only way out is a middleware that sends the request
// through the vendors' one HTTP layer (vendor-http.ts: the outbound guard, the time-out) with the
// app's token. Answers come back raw and are read here, up
// to a bound; a 401 renews the token once and repeats the call.

export type GraphRequest = ApiRequest;

export class GraphApi extends SharePointApi {
  constructor(
    wire: SharePointWire,
    private readonly tokens: GraphTokens,
    private readonly endpoints: GraphEndpoints,
  ) {
    super(wire);
  }

  /** A request outside Graph's base (an upload session's URL, which carries its own authorisation). */
  sendTo(url: URL, init: { method: string; headers?: Record<string, string>; body?: Buffer }): Promise<Response> {
    return this.wire.http.send(this.wire.ctx, this.wire.purpose, url, init);
  }

  async send(request: GraphRequest): Promise<Response> {
    return this.wire.http.authorized(this.tokens, (token) => this.once(request, token.accessToken));
  }

  private async once(request: GraphRequest, token: string): Promise<Response> {
    let response: Response | undefined;
    let failure: unknown;
    const guardMiddleware = {
      execute: async (context: Context) => {
        const headers = { ...(context.options?.headers as Record<string, string> | undefined), authorization: `Bearer ${token}` };
        try {
          response = await this.wire.http.send(this.wire.ctx, this.wire.purpose, new URL(String(context.request)), {
            method: context.options?.method,
            headers,
            body: context.options?.body as Buffer | string | undefined,
          });
        } catch (error) {
          failure = error;
          throw error;
        }
        context.response = response as unknown as Context["response"];
      },
    };
    const base = this.endpoints.graph.replace(/\/v1\.0$/, "");
    const api = Client.initWithMiddleware({ middleware: guardMiddleware, baseUrl: base, defaultVersion: "v1.0" })
      .api(request.path)
      .responseType(ResponseType.RAW);
    if (request.contentType) api.header("content-type", request.contentType);
    if (request.headers) api.headers(request.headers);
    const body = request.bytes ?? request.json;
    try {
      if (request.method === "GET") await api.get();
      else if (request.method === "POST") await api.post(body);
      else if (request.method === "PUT") await api.put(body);
      else if (request.method === "PATCH") await api.patch(body);
      else await api.delete();
    } catch (error) {
      if (failure) throw failure;
      if (!response) throw new DmsTargetError(this.kind, `Microsoft Graph could not be called: ${(error as Error).message}`, false, { cause: error });
    }
    if (!response) throw new DmsTargetError(this.kind, "Microsoft Graph gave no answer", true);
    return response;
  }
}
