import { spawnSync } from "node:child_process";
import path from "node:path";
import { type BrowserContext, type Page, expect } from "@playwright/test";

/**
 * The browser tests run one product instance per Playwright worker, each with its own ports and
 * data folder, so tests that change shared things (demo users' passwords, the firm record, the
 * demo reset) never meet. Worker n (its parallel index) talks to instance n: console on
 * E2E_PORT + 10n, API on E2E_API_PORT + 10n, SMTP on the console port + 1000, the analytics
 * receiver of the dashboard spec on the console port + 2000. E2E_WORKERS sets how many (2).
 */
export const E2E_WORKERS = Number(process.env.E2E_WORKERS ?? 2);

export function e2eInstance(index = Number(process.env.TEST_PARALLEL_INDEX ?? 0)) {
  if (!(index >= 0 && index < E2E_WORKERS)) throw new Error(`Browser test worker ${index} has no product instance: set E2E_WORKERS rather than --workers`);
  const port = Number(process.env.E2E_PORT ?? 3100) + 10 * index;
  return {
    port,
    apiPort: Number(process.env.E2E_API_PORT ?? 8180) + 10 * index,
    smtpPort: port + 1000,
    analyticsPort: port + 2000,
    /** Where the product reaches Box: a local Box the DMS spec starts (tests/dms/box/box-server.ts). */
    boxPort: port + 3000,
    /** Local servers of the practice-management systems' contracts (tests/dms/<system>/). */
    clioPort: port + 4000,
    litifyPort: port + 5000,
    fileVinePort: port + 6000,
    proLawPort: port + 7000,
    /** PACER's Authentication API: the court simulator the provider credentials spec starts. */
    pacerPort: port + 8000,
    /** A local server speaking Stripe's API and playing its hosted Checkout (the billing spec starts it). */
    stripePort: port + 9000,
    /** The identity providers the single sign-on specs start: an OpenID Connect issuer (tests/e2e/oidc-provider.ts) and SimpleSAMLphp. */
    oidcPort: port + 10000,
    samlIdpPort: port + 11000,
    dataDir: `tests/.tmp/e2e-data-${port}`,
  };
}

/** What tests/e2e/serve.ts says once every instance answers. */
export const INSTANCES_READY = "Browser test instances ready";

export const PASSWORD = "Demo-Passw0rd!";
export const USERS = {
  admin: "admin@demo.ecfx.test",
  manager: "manager@demo.ecfx.test",
  viewonly: "viewonly@demo.ecfx.test",
  docketing: "docketing@demo.ecfx.test",
} as const;

/**
 * The wait for the product's work in the background (the pipeline, an import, a court) or for
 * Monaco to load: on a busy machine longer than an assertion's 15 s.
 */
export const SLOW_WAIT = { timeout: 30_000 };

export async function signIn(page: Page, email: string, password = PASSWORD, path = "/login") {
  await page.goto(path);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * Signs the browser context in through the console's sign-in form, posted by the context (its
 * cookie jar keeps the session), without opening a page: for a test whose next step opens one,
 * so that the page the console sends a user to after signing in is not drawn for nothing.
 * Answers where the console sends the user. The sign-in page itself, with JavaScript and without,
 * is proven by sign-in.spec.ts; the other specs start signed in.
 */
export async function startSession(page: Page, email: string, password = PASSWORD): Promise<string> {
  const answer = await page.request.post("/login", { form: { email, password }, maxRedirects: 0 });
  expect(answer.status(), `signing ${email} in`).toBe(302);
  const location = answer.headers().location!;
  expect(location).not.toMatch(/\/login/);
  return location;
}

/** Signs in as `startSession` does and opens the page the console sends the user to. */
export async function signedIn(page: Page, email: string, password = PASSWORD) {
  await page.goto(await startSession(page, email, password));
  await expect(page).not.toHaveURL(/\/login/);
}

/** The console's session cookie as the browser keeps it (there must be one). */
export async function sessionCookie(context: BrowserContext) {
  const cookie = (await context.cookies()).find((c) => c.name === "ecfx_session");
  expect(cookie).toBeDefined();
  return cookie!;
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

export async function changePassword(page: Page, current: string, next: string) {
  await page.goto("/profile");
  await page.getByLabel("Current password").fill(current);
  await page.getByLabel(/^New password/).fill(next);
  await page.getByLabel("Confirm new password").fill(next);
  await page.getByRole("button", { name: "Change password" }).click();
}

/** The API of the product the browser tests run against (for setting up data directly). */
export const API_URL = `http://127.0.0.1:${e2eInstance().apiPort}`;

/**
 * A call of a test to the API (set-up, or a look at what the product did), sent again once when
 * the connection it reused was closed under it (a kept-alive socket the API side closed just as
 * the next call took it: nothing was read). Every spec calls the API through it.
 */
export async function apiFetch(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== "UND_ERR_SOCKET") throw error;
    return fetch(url, init);
  }
}

/** The API's answer to a demo user signing in. */
function apiLogin(email: string, password: string): Promise<Response> {
  return apiFetch(`${API_URL}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: email, password }),
  });
}

/** An API access token of a demo user (the admin by default), for setting up data. */
export async function apiToken(email: string = USERS.admin): Promise<string> {
  const res = await apiLogin(email, PASSWORD);
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Puts the demo firm back on local sign-on after a test switched it to its identity provider. */
export async function restoreLocalSignOn(): Promise<void> {
  const headers = { "content-type": "application/json", authorization: `Bearer ${await apiToken(USERS.admin)}` };
  const firm = (await (await apiFetch(`${API_URL}/api/v1/firm`, { method: "GET", headers })).json()) as { id: number };
  const restored = await apiFetch(`${API_URL}/api/v1/firm/${firm.id}`, { method: "PUT", headers, body: JSON.stringify({ ...firm, signon_type: "local" }) });
  expect(restored.status).toBe(200);
}

/**
 * Puts a demo user's password back after a test that changed it stopped half-way: the user signs
 * in with whichever of `changedTo` was left and changes it back, so that a retry, and the tests
 * after it, find the demo password.
 */
export async function restorePassword(email: string, changedTo: string[]): Promise<void> {
  for (const password of changedTo) {
    const res = await apiLogin(email, password);
    if (res.status !== 200) continue;
    const { user, access_token } = (await res.json()) as { user: { id: string }; access_token: string };
    const changed = await apiFetch(`${API_URL}/auth/${user.id}/change-password`, {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ currentPassword: password, newPassword: PASSWORD }),
    });
    expect(changed.status).toBe(200);
    return;
  }
}

/** Creates a record through the API (for setting up data) and answers its id. */
export async function apiCreate(token: string, route: string, body: unknown): Promise<string> {
  const res = await apiFetch(`${API_URL}${route}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** The demo firm's record through the API: read it, or write it whole (as the firm PUT wants). */
export async function firmApi(method: "GET" | "PUT", body?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const token = await apiToken();
  const res = await apiFetch(`${API_URL}/api/v1/firm${method === "PUT" ? `/${String(body?.id ?? "")}` : ""}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** Runs `ecfx features` on the data folder of this worker's product instance. */
export function ecfxFeatures(args: string[]): string {
  const { DATABASE_URL: _database, ...inherited } = process.env;
  // The compiled command (serve.ts builds it before the tests start): tsx would compile the
  // command's TypeScript on every call, seconds of CPU each on a machine the browsers keep busy.
  const run = spawnSync(process.execPath, [path.resolve("scripts/ecfx.cjs"), "features", ...args], {
    encoding: "utf8",
    env: { ...inherited, ECFX_DATA_DIR: e2eInstance().dataDir, ECFX_DEMO_DATA: "false", LOG_LEVEL: "silent" },
  });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return run.stdout;
}
