import { expect, test } from "@playwright/test";
import { USERS, sessionCookie, signedIn } from "./helpers";

test("tokens near expiry are refreshed server-side and the user stays signed in", async ({ page, context }) => {
  await signedIn(page, USERS.manager);
  const first = await sessionCookie(context);
  expect(first.httpOnly).toBe(true);
  expect(first.sameSite).toBe("Lax");
  // The cookie is sealed (a JWE): no access token (an HS256 JWT) can be read out of it.
  expect(Buffer.from(decodeURIComponent(first.value), "base64").toString("latin1")).not.toContain("eyJhbGciOiJIUzI1NiJ9");

  for (const path of ["/profile", "/dashboard", "/profile"]) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
  const later = await sessionCookie(context);
  expect(later.value).not.toBe(first.value);
});

test("a refresh during any answer reaches the browser: a file route's 404 carries the new session", async ({ page, context }) => {
  // Here every console request refreshes the tokens (an access token of 5 minutes, refreshed 10
  // minutes before it ends). A document route answers with a bare Response of its own: without the
  // refreshed cookie the browser would keep a refresh token already used, and be signed out once
  // the API's leeway for reuse is past.
  await signedIn(page, USERS.admin);
  const before = (await sessionCookie(context)).value;
  const answer = await page.request.get("/load-document/no-such-document", { maxRedirects: 0 });
  expect(answer.status()).toBe(404);
  expect(answer.headers()["set-cookie"]).toMatch(/^ecfx_session=/);
  expect((await sessionCookie(context)).value).not.toBe(before);
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/profile$/);
});

test("signed out, the sign-in page shows the branding of the firm whose host it is", async ({ page, baseURL }) => {
  // Chromium resolves every *.localhost name to this machine.
  await page.goto(`http://second.localhost:${new URL(baseURL!).port}/login`);
  await expect(page.getByTestId("firm-name")).toHaveText("Second Chair & Co");
  await page.goto("/login");
  await expect(page.getByTestId("firm-name")).toHaveText("Demo Law LLP");
});

test("the health check reports the API and its database", async ({ request }) => {
  const response = await request.get("/healthcheck");
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ status: "ok", database: "sqlite" });
});
