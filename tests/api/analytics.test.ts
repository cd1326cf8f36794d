import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

// Analytics go from the API to a Mixpanel-compatible endpoint, here a local receiver that keeps
// what it was sent. Nothing leaves without a token, nor for a user who opted out.

interface Received {
  path: string;
  body: Record<string, unknown>[];
}

const received: Received[] = [];
let receiver: http.Server;
let receiverUrl = "";

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      received.push({ path: new URL(req.url ?? "/", "http://x").pathname, body: JSON.parse(text) as Record<string, unknown>[] });
      res.writeHead(200, { "content-type": "text/plain" }).end('{"status":1}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

describe.each(backends)("analytics (%s)", (backend) => {
  const server = useApi({
    backend,
    env: {
      get ECFX_ANALYTICS_URL() {
        return receiverUrl;
      },
      ECFX_ANALYTICS_TOKEN: "prod-token",
      ECFX_ANALYTICS_TOKEN_DEV: "dev-token",
      ECFX_ANALYTICS_PRODUCTION_MARKER: "ecfx",
    },
  });
  const sessionOf = sessionsOf(server);
  const pageView = async (email: string, host: string, title = "Dashboard", path = "/dashboard", identity?: { distinctId: string; identified: boolean }) =>
    api(server().url, (await sessionOf(email)).access_token).post("/api/v1/analytics/page-view", { title, path, host, identity });

  beforeEach(() => {
    received.length = 0;
  });

  it("identifies the user once, e-mail and name set once, and sends 'View Page' with the title and the firm", async () => {
    expect((await pageView(DEMO.admin, "console.ecfx.com")).status).toBe(200);
    expect((await pageView(DEMO.admin, "console.ecfx.com", "Inbox", "/inbox-items")).status).toBe(200);
    const admin = await sessionOf(DEMO.admin);
    expect(received.map((r) => r.path)).toEqual(["/engage", "/track", "/track"]);
    expect(received[0]!.body).toEqual([{ $token: "prod-token", $distinct_id: admin.user.id, $set_once: { $email: DEMO.admin, $name: admin.user.fullName } }]);
    expect(received[1]!.body[0]).toMatchObject({
      event: "View Page",
      properties: { token: "prod-token", distinct_id: admin.user.id, title: "Dashboard", path: "/dashboard", firm: "Demo Law LLP" },
    });
    expect(received[2]!.body[0]).toMatchObject({ event: "View Page", properties: { title: "Inbox", path: "/inbox-items" } });
  });

  it("uses the other project's token when the host's second-to-last label is not the production marker", async () => {
    await pageView(DEMO.manager, "console.ecfx-staging.com:3000");
    expect(received.map((r) => r.body[0]!.$token ?? (r.body[0]!.properties as { token: string }).token)).toEqual(["dev-token", "dev-token"]);
    received.length = 0;
    // A host with no second-to-last label is no production host; the user is identified already.
    await pageView(DEMO.manager, "localhost:3000");
    expect(received.map((r) => r.path)).toEqual(["/track"]);
    expect((received[0]!.body[0]!.properties as { token: string }).token).toBe("dev-token");
  });

  it("sends nothing for a user who opted out on their profile, and again once they opt back in", async () => {
    const viewOnly = api(server().url, (await sessionOf(DEMO.viewOnly)).access_token);
    expect((await viewOnly.put("/api/v1/preferences/analytics", { value: { optOut: true } })).status).toBe(200);
    const optedOut = await pageView(DEMO.viewOnly, "console.ecfx.com", "Dashboard", "/dashboard", {
      distinctId: (await sessionOf(DEMO.viewOnly)).user.id,
      identified: false,
    });
    expect(optedOut.status).toBe(200);
    // Nothing was sent, so the browser's identity is still to be identified.
    expect(optedOut.body).toEqual({ identified: false, firm: "Demo Law LLP" });
    expect(received).toEqual([]);
    // The console learns with the user whether to report page views at all, so it asks for nothing then.
    const me = async () => (await viewOnly.get("/auth/me?host=console.ecfx.com")).body as { analytics: boolean; parts: string[] };
    expect((await me()).analytics).toBe(false);
    await viewOnly.put("/api/v1/preferences/analytics", { value: { optOut: false } });
    expect((await me()).analytics).toBe(true);
    await pageView(DEMO.viewOnly, "console.ecfx.com");
    expect(received.map((r) => r.path)).toEqual(["/engage", "/track"]);
  });

  it("identifies a browser's identity once, whatever the process identified before, and sends its page views with the same distinct id", async () => {
    const docketing = await sessionOf(DEMO.docketing);
    const distinctId = docketing.user.id;
    // The console's server reported a page first (a document): the user is identified by this process.
    await pageView(DEMO.docketing, "console.ecfx.com");
    received.length = 0;
    // A browser that kept no identity yet: identify is due from it, then never again from it.
    const first = await pageView(DEMO.docketing, "console.ecfx.com", "Inbox", "/inbox-items", { distinctId, identified: false });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ identified: true, firm: "Demo Law LLP" });
    const second = await pageView(DEMO.docketing, "console.ecfx.com", "Profile", "/profile", { distinctId, identified: true });
    expect(second.body).toEqual({ identified: true, firm: "Demo Law LLP" });
    expect(received.map((r) => r.path)).toEqual(["/engage", "/track", "/track"]);
    expect(received[0]!.body).toEqual([
      { $token: "prod-token", $distinct_id: distinctId, $set_once: { $email: DEMO.docketing, $name: docketing.user.fullName } },
    ]);
    expect(received.slice(1).map((r) => r.body[0])).toMatchObject([
      { event: "View Page", properties: { distinct_id: distinctId, title: "Inbox", path: "/inbox-items", firm: "Demo Law LLP" } },
      { event: "View Page", properties: { distinct_id: distinctId, title: "Profile", path: "/profile", firm: "Demo Law LLP" } },
    ]);
  });

  it("refuses a browser identity that is not the signed-in user's, or is malformed, and sends nothing", async () => {
    const admin = await sessionOf(DEMO.admin);
    const other = await pageView(DEMO.manager, "console.ecfx.com", "Dashboard", "/dashboard", { distinctId: admin.user.id, identified: true });
    expect(other.status).toBe(400);
    const client = api(server().url, (await sessionOf(DEMO.manager)).access_token);
    const malformed = await client.post("/api/v1/analytics/page-view", {
      title: "x",
      path: "/",
      host: "a.ecfx.com",
      identity: { distinctId: "u", identified: "yes" },
    });
    expect(malformed.status).toBe(400);
    expect(received).toEqual([]);
  });

  it("needs a signed-in user and a host", async () => {
    expect((await api(server().url).post("/api/v1/analytics/page-view", { title: "x", path: "/", host: "a.ecfx.com" })).status).toBe(401);
    const admin = api(server().url, (await sessionOf(DEMO.admin)).access_token);
    expect((await admin.post("/api/v1/analytics/page-view", { title: "x", path: "/" })).status).toBe(400);
    expect(received).toEqual([]);
  });
});

describe("analytics without a token", () => {
  const server = useApi({ backend: "sqlite", env: { ECFX_ANALYTICS_URL: "http://127.0.0.1:9" } });
  const sessionOf = sessionsOf(server);

  it("sends nothing anywhere: the sink is off by default", async () => {
    received.length = 0;
    const admin = api(server().url, (await sessionOf(DEMO.admin)).access_token);
    expect((await admin.post("/api/v1/analytics/page-view", { title: "Dashboard", path: "/dashboard", host: "console.ecfx.com" })).status).toBe(200);
    expect(received).toEqual([]);
    // The console is told so with the user, and reports nothing.
    const me = (await admin.get("/auth/me?host=console.ecfx.com")).body as { analytics: boolean; parts: string[] };
    expect(me.analytics).toBe(false);
    expect(me.parts).toEqual(expect.any(Array));
  });
});
