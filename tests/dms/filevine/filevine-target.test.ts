import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DmsTargetError, type DmsStoreRequest, intendAndWrite } from "../../../server/dms/dms-target";
import { createFileVineTarget, type FileVineSettings } from "../../../server/dms/filevine/filevine-target";
import type { TestContext } from "../box/box-context";
import { fileVineContext, keySettings, patSettings, subject } from "./filevine-context";
import { FILEVINE_MATTER_PROJECT, FILEVINE_WEB, type FileVineTestServer, startFileVineServer } from "./filevine-server";

// The FileVine client against the local FileVine: both ways of signing in, the token kept and
// renewed, the matter's project found, folders created, the three-step upload with hashtags, a
// retry adopting its earlier copy, billing items once per filing, refusals and throttling, and
// the connection test.

let server: FileVineTestServer;
const contexts: TestContext[] = [];
let keyCounter = 0;

beforeAll(async () => {
  server = await startFileVineServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  expect(server.contractViolations()).toEqual([]);
  await Promise.all(contexts.splice(0).map((ctx) => ctx.close()));
});

function target(settings: FileVineSettings = patSettings(server), ctx = fileVineContext(server)) {
  contexts.push(ctx);
  return { ctx, target: createFileVineTarget(settings, ctx) };
}

const newKey = () => `5f0c2b7e-0000-4000-8000-${String(++keyCounter).padStart(12, "0")}`;

const request = (folder: string[], name = "Order", overrides: Partial<DmsStoreRequest> = {}): DmsStoreRequest => ({
  folder,
  name,
  extension: "pdf",
  bytes: Buffer.from(`%PDF-1.4 ${folder.join("/")}/${name} ${keyCounter}`),
  contentType: "application/pdf",
  properties: {},
  subject: subject(),
  ...overrides,
});

const failure = async (promise: Promise<unknown>): Promise<DmsTargetError> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DmsTargetError);
    return error as DmsTargetError;
  }
  throw new Error("expected a failure");
};

const matterProject = () => server.projectOf(FILEVINE_MATTER_PROJECT.number)!;

describe("signing in", () => {
  it("exchanges the personal access token once, keeps it with the user and org, and reuses it", async () => {
    const { ctx, target: fv } = target();
    const before = server.signIns();
    const report = await fv.testConnection();
    expect(report.ok).toBe(true);
    expect(report.steps.map((s) => s.step)).toEqual(["Sign in", "List projects"]);
    expect(report.steps[0]!.detail).toBe("Signed in as ECFX Filing (org 4242)");
    expect(report.steps[1]!.detail).toBe("Listed 2 projects");
    await fv.testConnection();
    expect(server.signIns() - before).toBe(1);
    expect(ctx.tokens.writes).toBe(1);
    expect(ctx.tokens.token?.extra).toMatchObject({ userId: "77001", orgId: "4242" });
    // Another process with the same store uses the kept token.
    const other = createFileVineTarget(patSettings(server), { ...ctx, tokens: ctx.tokens });
    await other.testConnection();
    expect(server.signIns() - before).toBe(1);
  });

  it("renews the token before it expires and after FileVine stops taking it", async () => {
    const { ctx, target: fv } = target();
    await fv.testConnection();
    const first = ctx.tokens.token!.accessToken;
    ctx.advance(1200 * 1000 - 30_000);
    await fv.testConnection();
    const second = ctx.tokens.token!.accessToken;
    expect(second).not.toBe(first);
    server.revokeTokens();
    expect((await fv.testConnection()).ok).toBe(true);
    expect(ctx.tokens.token!.accessToken).not.toBe(second);
  });

  it("says 'Token generation failed' with FileVine's reason when the token or the app is refused, and does not retry", async () => {
    const pat = await failure(
      target(patSettings(server, { personalAccessToken: "revoked" }))
        .target.testConnection()
        .then((r) => {
          throw new DmsTargetError("x", r.steps.at(-1)!.detail, false);
        }),
    );
    expect(pat.message).toBe("Token generation failed: The personal access token is invalid or revoked");
    const { target: wrongApp } = target(patSettings(server, { clientSecret: "wrong" }));
    const refused = await failure(wrongApp.intend(request(["A"]), newKey()));
    expect(refused.retryable).toBe(false);
    expect(refused.message).toBe("Token generation failed: The client credentials are invalid");
    const key = await failure(target(keySettings(server, { api_secret: "wrong" })).target.intend(request(["A"]), newKey()));
    expect(key).toMatchObject({ retryable: false, message: "Token generation failed: Invalid API key or hash" });
    const none = await failure(target(patSettings(server, { personalAccessToken: "", api_key: "k" })).target.intend(request(["A"]), newKey()));
    expect(none.retryable).toBe(false);
    expect(none.message).toMatch(/^Token generation failed: the credential needs a personal access token/);
  });

  it("files with an API key and secret through FileVine's older API, session id and all", async () => {
    const { ctx, target: fv } = target(keySettings(server));
    const before = server.requests().length;
    const stored = await intendAndWrite(fv, request(["Key"], "Notice"), newKey());
    expect(ctx.tokens.token?.refreshToken).toBeTruthy();
    const calls = server.requests().slice(before);
    expect(calls[0]).toBe("POST /session");
    expect(calls.filter((c) => c.includes("/fv-app/"))).toEqual([]);
    expect(calls).toContain(`POST /core/projects/${matterProject().id}/documents/${stored.location}`);
    expect(server.documentsHeld().find((d) => d.id === stored.location)).toMatchObject({ folder: ["Key"], name: "Notice.pdf" });
  });
});

describe("filing", () => {
  it("files into the matter's project, creating the policy's folders, with the credential's hashtags and the filing's, and links the document", async () => {
    const ctx = fileVineContext(server);
    const { target: fv } = target(patSettings(server, { folder_creation_sync_delay: 750 }), ctx);
    const key = newKey();
    const req = request(["Pleadings", "2_24-cv-00501"], "0 Order: granted?");
    const intended = await fv.intend(req, key);
    expect(intended.location).toBe(`${matterProject().id}:/Pleadings/2_24-cv-00501/0 Order_ granted_.pdf`);
    const stored = await fv.write(req, intended);
    const held = server.documentsHeld().find((d) => d.id === stored.location)!;
    expect(held).toMatchObject({ projectId: matterProject().id, folder: ["Pleadings", "2_24-cv-00501"], name: "0 Order_ granted_.pdf" });
    expect(held.bytes.equals(req.bytes)).toBe(true);
    expect(held.hashtags).toEqual(["ecf", "court-notice", `ecfx${key.replaceAll("-", "")}`]);
    expect(stored.link).toBe(`${FILEVINE_WEB}/#/project/${matterProject().id}/documents/${stored.location}`);
    expect(held.link).toBe(stored.link);
    // Waited once, after creating folders; not again when they exist.
    expect(ctx.slept).toEqual([750]);
    await intendAndWrite(fv, request(["Pleadings", "2_24-cv-00501"], "Another"), newKey());
    expect(ctx.slept).toEqual([750]);
  });

  it("picks the next free name in the folder, FileVine comparing names without case", async () => {
    server.seed(FILEVINE_MATTER_PROJECT.number, ["Names"], "ORDER.PDF", Buffer.from("someone else's"));
    const { target: fv } = target();
    const intended = await fv.intend(request(["Names"]), newKey());
    expect(intended.location.endsWith("/Names/Order (2).pdf")).toBe(true);
  });

  it("finds the project by the matter's reference when no project has its number, leaves archived ones out, and fails at once without one", async () => {
    const id = server.addProject("FV-REF-7", "Reference matter");
    const { target: fv } = target();
    const byReference = await fv.intend(request(["R"], "Doc", { subject: subject({ number: "NOPE-1", reference: "FV-REF-7" }) }), newKey());
    expect(byReference.location.startsWith(`${id}:/`)).toBe(true);
    server.addProject("ZZ-1", "Named by reference");
    const byName = await fv.intend(request(["R"], "Doc", { subject: subject({ number: "NOPE-1", reference: "named by reference" }) }), newKey());
    expect(byName.location.startsWith(`${server.projectOf("ZZ-1")!.id}:/`)).toBe(true);
    const archived = await failure(fv.intend(request(["R"], "Doc", { subject: subject({ number: "M-999" }) }), newKey()));
    expect(archived).toMatchObject({ retryable: false, message: 'FileVine has no project for matter number "M-999"' });
    const none = await failure(fv.intend(request(["R"], "Doc", { subject: { ...subject(), matter: null } }), newKey()));
    expect(none.retryable).toBe(false);
  });

  it("adopts the copy an interrupted attempt added to the project instead of filing it twice", async () => {
    const { target: fv } = target();
    const key = newKey();
    const req = request(["Retry"], "Once");
    const intended = await fv.intend(req, key);
    expect(await fv.findExisting(intended)).toBeNull();
    const stored = await fv.write(req, intended);
    // A new process: the record says where the file was meant to go, FileVine holds it by its hashtag.
    const again = target().target;
    expect(await again.findExisting(intended)).toEqual(stored);
    expect(server.documentsHeld().filter((d) => d.folder.join("/") === "Retry")).toHaveLength(1);
  });

  it("adopts, and tags, the document an attempt added to the project but stopped before tagging", async () => {
    const { target: fv } = target();
    const key = newKey();
    const req = request(["Untagged"], "Halted");
    const intended = await fv.intend(req, key);
    server.failNext(503, { path: /^\/fv-app\/v2\/Documents\/\d+$/ });
    expect((await failure(fv.write(req, intended))).retryable).toBe(true);
    const [added] = server.documentsHeld().filter((d) => d.folder.join("/") === "Untagged");
    expect(added!.hashtags).toEqual([]);
    const adopted = await target().target.findExisting(intended);
    expect(adopted?.location).toBe(added!.id);
    expect(server.documentsHeld().find((d) => d.id === added!.id)!.hashtags).toContain(`ecfx${key.replace(/-/g, "")}`);
    // Someone else's untagged document of another name is never taken.
    server.seed(FILEVINE_MATTER_PROJECT.number, ["Untagged2"], "Halted.pdf", Buffer.from("%PDF theirs"));
    const other = await fv.intend(request(["Untagged2"], "Halted"), newKey());
    expect(await fv.findExisting(other)).toBeNull();
  });

  it("does not take a document whose upload was cut short for the filing's copy: it was never added to the project", async () => {
    const { target: fv } = target();
    const key = newKey();
    const req = request(["Cut"], "Short");
    const intended = await fv.intend(req, key);
    const unattached = server.unattached();
    server.failNext(503, { path: new RegExp(`^/fv-app/v2/Projects/${matterProject().id}/Documents/\\d+$`) });
    const cut = await failure(fv.write(req, intended));
    expect(cut.retryable).toBe(true);
    expect(server.unattached()).toBe(unattached + 1);
    expect(await fv.findExisting(intended)).toBeNull();
    await fv.write(req, intended);
    expect(server.documentsHeld().filter((d) => d.folder.join("/") === "Cut")).toHaveLength(1);
  });
});

describe("billing items", () => {
  it("adds one billing item per filing, described with the case and docket text, and none again on a retry", async () => {
    const { target: fv } = target(patSettings(server, { billingItem: "L120 Court notice review | 0.2 | 350" }));
    const key = newKey();
    const req = request(["Billing"], "Billed");
    const intended = await fv.intend(req, key);
    await fv.write(req, intended);
    const mine = () => server.billingItems().filter((item) => item.description.includes(key));
    expect(mine()).toHaveLength(1);
    expect(mine()[0]).toMatchObject({
      projectId: matterProject().id,
      quantity: 0.2,
      rate: 350,
      billingType: "Time",
      description: `L120 Court notice review - 2:24-cv-00501: ORDER granting 12 Motion to Extend Time. [ecfx ${key}]`,
    });
    await fv.findExisting(intended);
    expect(mine()).toHaveLength(1);
  });

  it("adds the billing item an attempt stopped before, when the retry adopts its document", async () => {
    const settings = patSettings(server, { billingItem: "Notice" });
    const { target: fv } = target(settings);
    const key = newKey();
    const req = request(["Billing"], "Stopped");
    const intended = await fv.intend(req, key);
    server.failNext(500, { path: /\/BillingItem$/i });
    expect((await failure(fv.write(req, intended))).retryable).toBe(true);
    expect(server.billingItems().filter((item) => item.description.includes(key))).toHaveLength(0);
    expect(await target(settings).target.findExisting(intended)).not.toBeNull();
    expect(server.billingItems().filter((item) => item.description.includes(key))).toHaveLength(1);
    expect(server.documentsHeld().filter((d) => d.name === "Stopped.pdf")).toHaveLength(1);
  });

  it("refuses a billing item it cannot read before anything is written", async () => {
    const { target: fv } = target(patSettings(server, { billingItem: "Review | many" }));
    const refused = await failure(fv.intend(request(["Billing"], "Never"), newKey()));
    expect(refused).toMatchObject({ retryable: false, message: 'The credential\'s billing item is not "description | hours | rate": "Review | many"' });
  });

  it("sends FileVine's BillingItemRequest: a dated time entry for the signed-in timekeeper, and leaves the rate out when none is set", async () => {
    const { target: fv, ctx } = target(patSettings(server, { billingItem: "Notice review" }));
    const key = newKey();
    const req = request(["Billing"], "Dated");
    await fv.write(req, await fv.intend(req, key));
    const [item] = server.billingItems().filter((entry) => entry.description.includes(key));
    expect(item).toMatchObject({ userId: 77001, date: new Date(ctx.now()).toISOString().slice(0, 10), quantity: 0.1, rate: null, isBillable: false });
  });

  it("finds the filing's billing item on a retry weeks later, beyond the 30 days FileVine lists by default", async () => {
    const settings = patSettings(server, { billingItem: "Notice | 0.1 | 200" });
    const { target: fv } = target(settings);
    const key = newKey();
    const req = request(["Billing"], "Late");
    const intended = await fv.intend(req, key);
    await fv.write(req, intended);
    const mine = () => server.billingItems().filter((item) => item.description.includes(key));
    mine()[0]!.date = new Date(Date.now() - 45 * 86_400_000).toISOString().slice(0, 10);
    await target(settings).target.findExisting(intended);
    expect(mine()).toHaveLength(1);
  });
});

describe("errors", () => {
  it("waits as long as FileVine's Retry-After says when it throttles", async () => {
    const { target: fv } = target();
    server.failNext(429, { retryAfterSeconds: 90, path: /^\/fv-app\/v2\/Projects$/ });
    const throttled = await failure(fv.intend(request(["T"]), newKey()));
    expect(throttled).toMatchObject({ retryable: true, retryAfterMs: 90_000 });
    expect(throttled.message).toBe('FileVine is throttling the project search by number "M-501": API rate limit exceeded');
  });

  it("tries again after FileVine's own faults and refuses for good what FileVine refuses, in FileVine's words", async () => {
    const { target: fv } = target();
    server.failNext(502, { path: /^\/fv-app\/v2\/Folders\/list$/ });
    expect((await failure(fv.intend(request(["E"]), newKey()))).retryable).toBe(true);
    const req = request(["E"]);
    const intended = await fv.intend(req, newKey());
    server.failNext(403, { path: /^\/fv-app\/v2\/Documents$/ });
    const refused = await failure(fv.write(req, intended));
    expect(refused).toMatchObject({ retryable: false, message: "FileVine refused the upload: FileVine failed with 403" });
  });

  it("counts a FileVine that does not answer in time as worth another try", async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    const ctx = fileVineContext({ ...server, origin }, 300);
    contexts.push(ctx);
    const timedOut = await failure(createFileVineTarget(patSettings(server), ctx).intend(request(["X"]), newKey()));
    expect(timedOut).toMatchObject({ retryable: true, message: "FileVine did not answer within 1 s" });
    silent.close();
  });

  it("reports where the connection test fails and never writes", async () => {
    const { target: fv } = target(patSettings(server, { personalAccessToken: "revoked" }));
    const before = server.requests().length;
    const report = await fv.testConnection();
    expect(report.ok).toBe(false);
    expect(report.steps).toEqual([{ step: "Sign in", ok: false, detail: "Token generation failed: The personal access token is invalid or revoked" }]);
    const good = await target().target.testConnection();
    expect(good.ok).toBe(true);
    const calls = server.requests().slice(before);
    expect(calls.filter((c) => c.startsWith("POST") && !/connect\/token|GetUserOrgsWithToken/i.test(c))).toEqual([]);
    expect(calls.filter((c) => c.startsWith("PUT"))).toEqual([]);
  });
});
