import { expect, test } from "@playwright/test";
import { field, press } from "./forms";
import { USERS, e2eInstance, restoreLocalSignOn, startSession } from "./helpers";
import { type RunningIssuer, startOidcProvider } from "./oidc-provider";

// A firm switched to OpenID Connect from the control room (its form without JavaScript) signs its
// staff in through oidc-provider's own sign-in pages, with JavaScript on and off, and signing out
// ends the session at the issuer too: the next single sign-on asks for the password there again.

const instance = e2eInstance();
const console_ = `http://localhost:${instance.port}`;
let idp: RunningIssuer;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  idp = await startOidcProvider(instance.oidcPort, { redirectUri: `${console_}/auth/oidc/callback`, postLogoutUri: `${console_}/auth/oidc/logout` });
});

// The issuer's pages import a web font; the test machine has no way out, and waits for none.
test.beforeEach(async ({ context }) => {
  await context.route(/^https:\/\/fonts\.googleapis\.com\//, (route) => route.abort());
});

// Other tests of this instance sign in with passwords: the firm goes back to local sign-on.
test.afterAll(async () => {
  await idp?.stop();
  await restoreLocalSignOn();
});

test.describe("the control room without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an administrator describes the issuer, is told what is wrong, and switches the firm to OpenID Connect", async ({ page }) => {
    await startSession(page, USERS.admin);
    await page.goto("/single-sign-on");
    await expect(page.getByText(`${console_}/auth/oidc/callback`)).toBeVisible();
    await expect(page.getByText(`${console_}/auth/oidc/logout`)).toBeVisible();

    await field(page, "OpenID Connect issuer").fill("not an address");
    await field(page, "OpenID Connect client id").fill(idp.client.id);
    await field(page, "OpenID Connect client secret").fill(idp.client.secret);
    await field(page, "Break-glass administrator").fill("nobody@demo.ecfx.test");
    await press(page, "Save");
    // The first reason on top, each beside its field.
    await expect(page.getByTestId("sso-error")).toHaveText("Enter an http or https address.");
    await expect(page.getByText("Enter an http or https address.")).toHaveCount(2);
    await expect(page.getByText("No user of this firm has this e-mail address.")).toBeVisible();
    // What was typed stays on the form to be mended.
    await expect(field(page, "OpenID Connect issuer")).toHaveValue("not an address");
    await expect(field(page, "Break-glass administrator")).toHaveValue("nobody@demo.ecfx.test");

    await field(page, "OpenID Connect issuer").fill(idp.issuer);
    await field(page, "OpenID Connect client secret").fill(idp.client.secret);
    await field(page, "Break-glass administrator").fill(USERS.admin);
    await press(page, "Save");
    await expect(page.getByText("Firm settings saved.")).toBeVisible();
    await page.goto("/single-sign-on");
    await expect(field(page, "OpenID Connect issuer")).toHaveValue(idp.issuer);
    await expect(field(page, "OpenID Connect client id")).toHaveValue(idp.client.id);
    await expect(field(page, "Break-glass administrator")).toHaveValue(USERS.admin);
    // The secret is kept, never shown back.
    await expect(field(page, "OpenID Connect client secret")).toHaveValue("");

    await page.goto("/firm-information");
    await field(page, "Sign-on type").selectOption("oidc");
    await press(page, "Save");
    await expect(page.getByText("Firm settings saved.")).toBeVisible();
    await page.goto("/single-sign-on");
    await expect(page.getByTestId("signon-type")).toHaveText("oidc");
  });

  test("the sign-in page offers no password reset, and a request for staff is answered as any other", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("link", { name: "Sign in with single sign-on" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Forgot your password?" })).toHaveCount(0);
    await page.goto("/password-forgot");
    await field(page, "Email").fill(USERS.manager);
    await press(page, "Send reset link");
    await expect(page.getByTestId("reset-sent")).toContainText("Check your email: a reset link is on its way.");
  });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`OpenID Connect sign-on with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("staff sign in on the issuer's own pages, and signing out ends the issuer's session too", async ({ page }) => {
      const signInAtIssuer = async () => {
        await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/`));
        await page.locator("input[name=login]").fill(USERS.manager);
        await page.locator("input[name=password]").fill("the-issuer-password");
        await page.getByRole("button", { name: "Sign-in" }).click();
        await page.getByRole("button", { name: "Continue" }).click();
      };
      await page.goto("/login");
      await page.getByRole("link", { name: "Sign in with single sign-on" }).click();
      await signInAtIssuer();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

      await page.getByRole("button", { name: "Sign out" }).click();
      // The issuer's own sign-out page, reached with the session's ID token as hint.
      await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/session/end`));
      await page.getByRole("button", { name: "Yes, sign me out" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByText("You have been signed out.")).toBeVisible();
      await page.goto("/dashboard");
      await expect(page).toHaveURL(/\/login\?from=%2Fdashboard$/);

      // Signed out at the issuer too: single sign-on asks for the password there again.
      await page.getByRole("link", { name: "Sign in with single sign-on" }).click();
      await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/`));
      await expect(page.locator("input[name=password]")).toBeVisible();
      await signInAtIssuer();
      await expect(page).toHaveURL(/\/dashboard$/);
    });
  });
}
