import { type ChildProcess, spawn } from "node:child_process";
// @ts-expect-error: a plain ES module of the build scripts, without types.
import { SERVER_ENTRY } from "../../scripts/build-server.mjs";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import protobuf from "protobufjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_PRODUCT_MS, buildProductOnce } from "./build-once";
import { freePort } from "../free-port";
import { DEMO, DEMO_PASSWORD } from "./harness";

// The console's edges, on the real product (console and API processes as `npm start` runs them):
// what a browser, a proxy or an attacker sends before any route code runs. The console never
// touches the database, so one SQLite run covers them.

const root = path.resolve(import.meta.dirname, "../..");

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  bytes: Buffer;
}

interface Call {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The address the request leaves from (any 127.x address reaches the loopback listener). */
  from?: string;
}

function request(port: number, route: string, call: Call = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: route, method: call.method ?? "GET", headers: call.headers, localAddress: call.from }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString("utf8"), bytes });
      });
    });
    req.on("error", reject);
    req.end(call.body);
  });
}

const form = (values: Record<string, string>) => new URLSearchParams(values).toString();
const FORM = "application/x-www-form-urlencoded";

describe("console edges", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-console-"));
  let product: ChildProcess | undefined;
  let output = "";
  let port = 0;
  let apiPort = 0;
  let own: Record<string, string> = {};
  let cookie = "";

  const signIn = async (email: string = DEMO.admin, from?: string): Promise<Answer> =>
    request(port, "/login", { method: "POST", from, headers: { ...own, "content-type": FORM }, body: form({ email, password: DEMO_PASSWORD }) });

  beforeAll(buildProductOnce, BUILD_PRODUCT_MS);

  beforeAll(async () => {
    port = await freePort();
    apiPort = await freePort();
    own = { origin: `http://localhost:${port}`, host: `localhost:${port}` };
    // The compiled product, as `npm start` and the container run it.
    product = spawn(process.execPath, [SERVER_ENTRY], {
      cwd: root,
      env: {
        ...process.env,
        ECFX_ROLES: "console,api",
        ECFX_DATA_DIR: dataDir,
        PORT: String(port),
        ECFX_HOST: "0.0.0.0",
        ECFX_API_PORT: String(apiPort),
        ECFX_DEMO_DATA: "false",
        ECFX_DEMO_PASSWORD: DEMO_PASSWORD,
        // Only the IPv4 loopback (where the console calls the API from) is a trusted proxy, so a
        // client on 127.0.0.2 is an outsider whose X-Forwarded-For must not be believed.
        ECFX_TRUSTED_PROXIES: "127.0.0.1",
        ECFX_LOGIN_MAX_FAILURES_PER_ADDRESS: "3",
        ECFX_LOGIN_MAX_FAILURES: "100",
        LOG_LEVEL: "info",
        NODE_ENV: "production",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    product.stdout!.on("data", (c: Buffer) => (output += c.toString()));
    product.stderr!.on("data", (c: Buffer) => (output += c.toString()));
    const exited = new Promise<never>((_, reject) => product!.once("exit", (code) => reject(new Error(`product exited (${code}): ${output}`))));
    const ready = (async () => {
      for (;;) {
        const answer = await request(port, "/login").catch(() => null);
        if (answer?.status === 200) return;
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    await Promise.race([ready, exited]);
    const signedIn = await signIn();
    expect(signedIn.status).toBe(302);
    cookie = String(signedIn.headers["set-cookie"]?.find((c) => c.startsWith("ecfx_session="))?.split(";")[0]);
  }, 240_000);

  afterAll(() => {
    if (process.env.ECFX_SHOW_CONSOLE_OUTPUT) console.log(output);
    product?.kill("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  describe("cross-site writes (CSRF)", () => {
    it.each([
      ["/logout", { origin: "https://evil.example" }],
      ["/resources/inbox-bulk", { "sec-fetch-site": "cross-site" }],
      ["/inbox-items?_data=routes%2F_app.inbox-items._index", { origin: "https://evil.example" }],
      ["/cases.data?index", { "sec-fetch-site": "cross-site" }],
      ["/preferences/theme", { origin: "null" }],
      // Another firm's host is the same site but not the same origin.
      ["/logout", { "sec-fetch-site": "same-site" }],
    ])("refuses a cross-site POST to %s with 403", async (route, headers) => {
      const answer = await request(port, route, { method: "POST", headers: { cookie, host: own.host!, "content-type": FORM, ...headers }, body: "intent=x" });
      expect(answer.status).toBe(403);
      expect(answer.body).toBe("This request came from another site and was refused. Open the console and try again there.");
    });

    it("keeps the session after a refused cross-site sign-out, and signs out a same-origin one", async () => {
      // Signing out ends every session of the user: another user than the other tests'.
      const session = String((await signIn(DEMO.manager)).headers["set-cookie"]?.find((c) => c.startsWith("ecfx_session="))?.split(";")[0]);
      await request(port, "/logout", { method: "POST", headers: { cookie: session, host: own.host!, origin: "https://evil.example", "content-type": FORM } });
      expect((await request(port, "/dashboard", { headers: { cookie: session, host: own.host! } })).status).toBe(200);
      const out = await request(port, "/logout", {
        method: "POST",
        headers: { cookie: session, ...own, "sec-fetch-site": "same-origin", "content-type": FORM },
      });
      expect(out.status).toBe(302);
      expect(out.headers.location).toBe("/login");
    });
  });

  it("draws nothing of a signed-out session: its old cookie goes to sign-in at once, whichever process answers", async () => {
    // Signing out ends every session of the user: another user than the other tests'.
    const session = String((await signIn(DEMO.docketing)).headers["set-cookie"]?.find((c) => c.startsWith("ecfx_session="))?.split(";")[0]);
    const dashboard = () => request(port, "/dashboard", { headers: { cookie: session, host: own.host! } });
    // The console's processes take turns: each draws the signed-in page once.
    for (let i = 0; i < 2; i++) expect((await dashboard()).body).toContain(DEMO.docketing);
    const out = await request(port, "/logout", { method: "POST", headers: { cookie: session, ...own, "sec-fetch-site": "same-origin", "content-type": FORM } });
    expect(out.status).toBe(302);
    for (let i = 0; i < 2; i++) {
      const after = await dashboard();
      expect([after.status, after.headers.location]).toEqual([302, "/login"]);
      expect(after.body).not.toContain(DEMO.docketing);
    }
  });

  it("counts failed sign-ins per real client address, whatever X-Forwarded-For the client sends", async () => {
    const attempt = (n: number) =>
      request(port, "/login", {
        method: "POST",
        from: "127.0.0.2",
        headers: { ...own, "content-type": FORM, "x-forwarded-for": `198.51.100.${n}` },
        body: form({ email: `nobody${n}@demo.ecfx.test`, password: "wrong-password" }),
      });
    for (let n = 1; n <= 3; n++) expect((await attempt(n)).body).toContain("does not match the records");
    expect((await attempt(4)).body).toContain("Too many sign-in attempts. Try again in 15 minutes.");
    // Another address is not held up by this one.
    expect((await signIn(DEMO.viewOnly, "127.0.0.3")).status).toBe(302);
  });

  describe("bad input gets a 4xx, never a 500", () => {
    it("a resource route posted JSON instead of a form", async () => {
      const answer = await request(port, "/resources/inbox-bulk", {
        method: "POST",
        headers: { cookie, ...own, "content-type": "application/json" },
        body: "{}",
      });
      expect(answer.status).toBe(400);
    });

    it("a multipart body cut short", async () => {
      const body = '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.eml"\r\n\r\nabc';
      const answer = await request(port, "/inbox-items/upload", {
        method: "POST",
        headers: { cookie, ...own, "content-type": "multipart/form-data; boundary=xyz" },
        body,
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toContain("The form could not be read.");
    });

    it("an import that is not a readable multipart form", async () => {
      for (const [contentType, body] of [
        ["multipart/form-data; boundary=xyz", '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc'],
        ["application/x-www-form-urlencoded", "file=abc"],
      ]) {
        const answer = await request(port, "/cases/import", { method: "POST", headers: { cookie, ...own, "content-type": contentType! }, body });
        expect(answer.status, contentType).toBe(400);
        expect(answer.body).toContain("The form could not be read.");
      }
    });

    it("an 8,000-character id", async () => {
      const answer = await request(port, `/cases/${"a".repeat(8000)}`, { headers: { cookie, host: own.host! } });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    });

    it("a malformed Referer", async () => {
      const answer = await request(port, "/preferences/theme", {
        method: "POST",
        headers: { cookie, ...own, referer: "http://[bad", "content-type": FORM },
        body: "darkMode=true",
      });
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toBe("/dashboard");
    });

    it("a redirect target outside Latin-1", async () => {
      const answer = await request(port, "/login?from=%2Fcases%3Fq%3D%E2%82%AC", { headers: { cookie, host: own.host! } });
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toBe("/cases?q=%E2%82%AC");
    });

    it("a 10 MB e-mail address on the sign-in form is refused without being sent back", async () => {
      const huge = `${"x".repeat(10 * 1024 * 1024)}@demo.ecfx.test`;
      const answer = await request(port, "/login", {
        method: "POST",
        headers: { ...own, "content-type": FORM },
        body: form({ email: huge, password: "whatever-it-is" }),
      });
      expect(answer.status).toBe(400);
      expect(answer.body.length).toBeLessThan(200_000);
      expect(answer.body).not.toContain("xxxxxxxxxx");
    });
  });

  describe("response headers", () => {
    it("pages carry a CSP whose nonce is on every script of the page", async () => {
      const page = await request(port, "/login");
      const csp = String(page.headers["content-security-policy"]);
      const nonce = csp.match(/script-src 'self' 'nonce-([^']+)'/)?.[1];
      expect(nonce).toBeTruthy();
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'self'");
      const scripts = page.body.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
      expect((await request(port, "/login")).headers["content-security-policy"]).not.toBe(csp);
    });

    it("signed-in pages are never stored; pages and JSON are never sniffed", async () => {
      const page = await request(port, "/dashboard", { headers: { cookie, host: own.host! } });
      expect(page.status).toBe(200);
      expect(page.headers["cache-control"]).toBe("no-store");
      expect(page.headers["x-content-type-options"]).toBe("nosniff");
      const health = await request(port, "/healthcheck");
      expect(health.headers["content-type"]).toContain("json");
      expect(health.headers["x-content-type-options"]).toBe("nosniff");
      const api = await request(apiPort, "/api/v1/health");
      expect(api.headers["x-content-type-options"]).toBe("nosniff");
    });
  });

  it("follows a role's grants changed through the API at once, not a few seconds later", async () => {
    // The role as the binary UserSecurityRole message, straight from the .proto file.
    const Role = protobuf.loadSync(path.join(root, "proto", "security_role.proto")).lookupType("ecfx.UserSecurityRole");
    const PROTOBUF = "application/x-protobuf";
    const { access_token: token } = JSON.parse(
      (
        await request(apiPort, "/auth/login", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ username: DEMO.admin, password: DEMO_PASSWORD }),
        })
      ).body,
    ) as { access_token: string };
    const roles = JSON.parse((await request(apiPort, "/api/v1/security-role/search?size=50", { headers: { authorization: `Bearer ${token}` } })).body) as {
      id: string;
      name: string;
    }[];
    const manager = roles.find((r) => r.name === "Manager")!.id;
    const roleRoute = `/api/v1/user-security-role/${manager}`;
    const read = await request(apiPort, roleRoute, { headers: { authorization: `Bearer ${token}`, accept: PROTOBUF } });
    const role = Role.toObject(Role.decode(read.bytes), { enums: String, longs: Number, defaults: true, arrays: true });
    const write = async (userAccess: string) => {
      const body = Buffer.from(Role.encode(Role.fromObject({ ...role, userAccess })).finish());
      const answer = await request(apiPort, roleRoute, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": PROTOBUF, accept: PROTOBUF },
        body,
      });
      expect(answer.status, answer.body).toBe(200);
    };

    const session = String((await signIn(DEMO.manager)).headers["set-cookie"]?.find((c) => c.startsWith("ecfx_session="))?.split(";")[0]);
    const users = () => request(port, "/users", { headers: { cookie: session, ...own } });
    expect((await users()).status).toBe(200);
    // Straight to the API: the console's kept role is now out of date.
    await write("DENY");
    try {
      // The page in flight may still be drawn with the kept role; the API's answers carry the new stamp.
      await users();
      const after = await users();
      expect(after.status).toBe(302);
      expect(after.headers.location).toBe("/success");
    } finally {
      await write("FULL");
    }
  });

  it("serves the public files, and leaves every other address to the pages", async () => {
    const icon = await request(port, "/favicon.svg", { headers: own });
    expect([icon.status, icon.headers["content-type"], icon.headers["cache-control"]]).toEqual([200, "image/svg+xml", "public, max-age=3600"]);
    const editor = await request(port, "/monaco/vs/loader.js", { headers: own });
    expect(editor.status).toBe(200);
    expect(editor.headers["content-type"]).toMatch(/javascript/);
    const unknown = await request(port, "/favicon.svg.old", { headers: own });
    expect(unknown.status).toBe(404);
    expect(unknown.headers["content-type"]).toMatch(/text\/html/);
  });

  it("sends the dashboard whole: the counts it asked for while drawing are in the document, no script places them", async () => {
    const page = await request(port, "/dashboard?period=all_time", { headers: { cookie, host: own.host! } });
    expect(page.status).toBe(200);
    for (const part of ["by-state", "by-hour", "by-month", "period-shown", "documents-received", "top-clients"])
      expect(page.body).toContain(`data-testid="${part}"`);
    expect(page.body).not.toContain('data-testid="dashboard-counting"');
    // React's way of sending a part late: a hidden copy moved into place by a script.
    expect(page.body).not.toMatch(/<div hidden id="S:|\$RC\(/);
  });

  // The list pages' route, as a data request names it.
  const LIST_ROUTE = encodeURIComponent("routes/_app.$resource._index");

  it("sends a list page's rows once: drawn in the document, not again in its loader data, which a data request carries", async () => {
    const headers = { cookie, host: own.host! };
    const page = await request(port, "/users?sort=email", { headers });
    expect(page.status).toBe(200);
    const ids = [...page.body.matchAll(/href="\/users\/([0-9a-f-]{36})"/g)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    // Each row's id once (its link), an e-mail once (its cell): nothing of the rows in the loader
    // data. (The signed-in user's own id and e-mail are in it, as the header's.)
    const once = ids.filter((id) => page.body.split(id).length - 1 === 1);
    expect(once.length).toBe(ids.length - 1);
    expect(page.body.split(DEMO.manager).length - 1).toBe(1);
    expect(page.body).toContain('data-renderer="plain"');

    // What a client navigation gets: the rows in the loader data.
    const rows = await request(port, `/users.data?sort=email&index&_routes=${LIST_ROUTE}`, { headers });
    expect(rows.status).toBe(200);
    for (const id of ids) expect(rows.body).toContain(id);
    expect(rows.body).toContain(DEMO.manager);
  });

  it("answers the browser's request for a document's rows with the page the document was drawn from, once", async () => {
    const headers = { cookie, host: own.host! };
    // The console's searches so far, by the API's access log (which names a route by its pattern).
    const searches = async () => {
      await new Promise((r) => setTimeout(r, 300));
      return output.split('"route":"/api/v1/:resource/search"').length - 1;
    };
    const page = await request(port, "/users?sort=-email", { headers });
    const token = /"handover","([0-9a-f-]{36})"/.exec(page.body.replaceAll('\\"', '"'))?.[1];
    expect(token).toBeDefined();
    const before = await searches();
    const follow = `/users.data?sort=-email&index&handover=${token}&_routes=${LIST_ROUTE}`;
    const first = await request(port, follow, { headers });
    expect(first.body).toContain(DEMO.manager);
    expect(await searches()).toBe(before);
    // Taken once: the same request again is searched afresh.
    const again = await request(port, follow, { headers });
    expect(again.body).toContain(DEMO.manager);
    expect(await searches()).toBe(before + 1);
  });

  it("keeps tokens of document and reset links out of the access logs", async () => {
    await request(port, "/public/document/SECRET-DOCUMENT-TOKEN-123");
    await request(port, "/password-reset?token=SECRET-RESET-TOKEN-456");
    await request(apiPort, "/api/v1/public/document/SECRET-API-TOKEN-789");
    await new Promise((r) => setTimeout(r, 500));
    expect(output).toContain("/public/document/[redacted]");
    // The log names the path as asked, any token in its query hidden.
    expect(output).toContain('"url":"/password-reset?token=[redacted]"');
    for (const secret of ["SECRET-DOCUMENT-TOKEN-123", "SECRET-RESET-TOKEN-456", "SECRET-API-TOKEN-789"]) expect(output).not.toContain(secret);
  });

  it("answers 503 with the catalogue's words when the API cannot be reached, and sign-in says so", async () => {
    // A second console on the same secrets (so the session cookie opens it), whose API is away.
    const awayPort = await freePort();
    const deadApi = await freePort();
    const away = spawn(process.execPath, [SERVER_ENTRY], {
      cwd: root,
      env: {
        ...process.env,
        ECFX_ROLES: "console",
        ECFX_DATA_DIR: dataDir,
        PORT: String(awayPort),
        ECFX_API_URL: `http://127.0.0.1:${deadApi}`,
        LOG_LEVEL: "warn",
        NODE_ENV: "production",
      },
      stdio: "ignore",
    });
    try {
      const host = `localhost:${awayPort}`;
      let login: Answer | null = null;
      for (let i = 0; i < 120 && login?.status !== 200; i++) {
        login = await request(awayPort, "/login").catch(() => null);
        if (login?.status !== 200) await new Promise((r) => setTimeout(r, 250));
      }
      expect(login?.status).toBe(200);
      const page = await request(awayPort, "/dashboard", { headers: { cookie, host } });
      expect(page.status).toBe(503);
      expect(page.body).toContain("The ECFX service cannot be reached. Try again in a moment.");
      expect(page.body).toContain('data-testid="try-again"');
      const post = await request(awayPort, "/login", {
        method: "POST",
        headers: { host, origin: `http://${host}`, "content-type": FORM },
        body: form({ email: DEMO.admin, password: DEMO_PASSWORD }),
      });
      expect(post.body).toContain("The ECFX service cannot be reached. Try again in a moment.");
      expect(post.status).toBeLessThan(500);
    } finally {
      away.kill("SIGTERM");
    }
    // Starting a console is seconds of work on a busy machine; the loop above waits up to 30 s.
  }, 60_000);

  it("creates the database and the secrets readable by their owner only", () => {
    for (const file of ["ecfx.sqlite", "ecfx.sqlite-wal", "secrets.json"]) {
      const mode = fs.statSync(path.join(dataDir, file)).mode & 0o777;
      expect([file, mode.toString(8)]).toEqual([file, "600"]);
    }
  });
});
