import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OutboundGuard } from "../outbound/guard";
import {
  MAX_ANSWER_BYTES,
  MAX_TITLE_LENGTH,
  PermanentExtractionError,
  type ProviderSettings,
  RetryableExtractionError,
  TitleClient,
  acceptedTitle,
} from "./title-client";

// The client's side of docs/extraction-provider.md against a provider that answers what each
// case scripts: what is retried, what is final, what is refused, and when a token is renewed.

type Answer = { status: number; body: string } | "never";

describe("title extraction client", () => {
  let answers: { token: Answer[]; title: Answer[] };
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.url ?? "");
    req.resume();
    const answer = (req.url?.endsWith("/auth") ? answers.token : answers.title).shift() ?? { status: 500, body: "{}" };
    if (answer === "never") return;
    res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
  });
  let settings: ProviderSettings;
  let guard: OutboundGuard;
  let now = 1_000_000;
  const client = () => new TitleClient({ guard, timeoutMs: 300, now: () => now });
  const token = (expiresIn = 3600): Answer => ({ status: 200, body: JSON.stringify({ access_token: "t-1", expires_in: expiresIn }) });
  const title = (value: unknown): Answer => ({ status: 200, body: JSON.stringify({ title: value }) });
  const question = { document_name: "Order", court_document_id: "0351", text: "ORDER granting motion" };

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    guard = new OutboundGuard({ allowedOrigins: [origin] });
    settings = { clientUrl: origin, authPath: "/auth", clientId: "id", clientSecret: "secret", customerId: "c", queueName: "q" };
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await guard.close();
  });

  it("takes a title, then keeps the token until a minute before it expires", async () => {
    answers = { token: [token(120), token()], title: [title(" Motion to Dismiss "), title("Second"), title("Third")] };
    seen.length = 0;
    const titles = client();
    expect(await titles.extractTitle(settings, question)).toBe("Motion to Dismiss");
    now += 59_000;
    expect(await titles.extractTitle(settings, question)).toBe("Second");
    now += 2_000;
    expect(await titles.extractTitle(settings, question)).toBe("Third");
    expect(seen).toEqual(["/auth", "/v1/title", "/v1/title", "/auth", "/v1/title"]);
  });

  it.each([
    [429, RetryableExtractionError],
    [503, RetryableExtractionError],
    [400, PermanentExtractionError],
  ])("answers %s to the title request with a %o", async (status, kind) => {
    answers = { token: [token()], title: [{ status, body: "{}" }] };
    await expect(client().extractTitle(settings, question)).rejects.toBeInstanceOf(kind);
  });

  it("takes refused credentials as final, a provider that does not answer as retryable", async () => {
    answers = { token: [{ status: 401, body: "{}" }], title: [] };
    await expect(client().extractTitle(settings, question)).rejects.toThrow(PermanentExtractionError);
    answers = { token: ["never"], title: [] };
    await expect(client().extractTitle(settings, question)).rejects.toThrow(RetryableExtractionError);
  });

  it("drops a kept token the provider no longer takes, and asks for a new one next time", async () => {
    answers = { token: [token(), token()], title: [title("First"), { status: 401, body: "{}" }, title("Again")] };
    seen.length = 0;
    const titles = client();
    expect(await titles.extractTitle(settings, question)).toBe("First");
    await expect(titles.extractTitle(settings, question)).rejects.toThrow(RetryableExtractionError);
    expect(await titles.extractTitle(settings, question)).toBe("Again");
    expect(seen).toEqual(["/auth", "/v1/title", "/v1/title", "/auth", "/v1/title"]);
  });

  it("asks under the client URL's path, and takes an auth path like //other.host as a path there", async () => {
    answers = { token: [token()], title: [title("Under a path")] };
    seen.length = 0;
    expect(await client().extractTitle({ ...settings, clientUrl: `${settings.clientUrl}/api/`, authPath: "//other.test/auth" }, question)).toBe("Under a path");
    expect(seen).toEqual(["/api/other.test/auth", "/api/v1/title"]);
  });

  it("refuses an answer over the size bound", async () => {
    answers = { token: [token()], title: [title("x".repeat(MAX_ANSWER_BYTES))] };
    await expect(client().extractTitle(settings, question)).rejects.toThrow(`over ${MAX_ANSWER_BYTES} bytes`);
  });

  it("never calls a client URL on a private address the operator did not name", async () => {
    seen.length = 0;
    const elsewhere = { ...settings, clientUrl: settings.clientUrl.replace("http:", "https:") };
    await expect(client().extractTitle(elsewhere, question)).rejects.toThrow(PermanentExtractionError);
    expect(seen).toEqual([]);
  });

  it("accepts one line of text, trimmed, without control characters, up to the length bound", () => {
    expect(acceptedTitle({ title: "  Order Granting Stay " })).toBe("Order Granting Stay");
    for (const bad of [
      {},
      { title: 7 },
      { title: "  " },
      { title: "Two\nlines" },
      { title: "Bell\u0007" },
      { title: "x".repeat(MAX_TITLE_LENGTH + 1) },
      null,
    ]) {
      expect(() => acceptedTitle(bad), JSON.stringify(bad)).toThrow(PermanentExtractionError);
    }
  });
});
