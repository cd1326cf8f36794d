import http from "node:http";
import type { AddressInfo } from "node:net";

// A local title extraction provider speaking docs/extraction-provider.md: a token at the auth
// path for the right client id and secret, then titles for that token. A test scripts the
// statuses of its next answers and reads every request it received.

export interface ProviderRequest {
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

export interface TitleProvider {
  url: string;
  requests: ProviderRequest[];
  /** The next title answers, in order: a status to answer instead of a title. */
  failNext(...statuses: number[]): void;
  /** The title given for the next requests. */
  title: string;
  close(): Promise<void>;
}

export async function startTitleProvider(credentials: { authPath: string; clientId: string; clientSecret: string }): Promise<TitleProvider> {
  const token = "provider-token-1";
  const failures: number[] = [];
  const requests: ProviderRequest[] = [];
  const provider = { title: "Order Granting Motion to Dismiss" };
  const answer = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => {
      const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
      requests.push({ path: req.url ?? "", authorization: req.headers.authorization, body });
      if (req.method !== "POST") return answer(res, 405, {});
      if (req.url === credentials.authPath) {
        const known = body.client_id === credentials.clientId && body.client_secret === credentials.clientSecret;
        return known ? answer(res, 200, { access_token: token, expires_in: 3600 }) : answer(res, 401, { error: "invalid_client" });
      }
      if (req.url !== "/v1/title") return answer(res, 404, {});
      const failure = failures.shift();
      if (failure) return answer(res, failure, { error: "scripted" });
      if (req.headers.authorization !== `Bearer ${token}`) return answer(res, 401, { error: "invalid_token" });
      answer(res, 200, { title: provider.title });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(provider, {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (...statuses: number[]) => void failures.push(...statuses),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
