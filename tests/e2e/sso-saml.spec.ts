import path from "node:path";
import { expect, test } from "@playwright/test";
import { field, press } from "./forms";
import { USERS, e2eInstance, restoreLocalSignOn, signIn, signedIn, startSession } from "./helpers";
import { type RunningIdp, startSimpleSamlPhp } from "./simplesamlphp";

// A firm switched to SAML from the control room signs its staff in through SimpleSAMLphp (an
// identity provider we did not write), with JavaScript on and off, and signs them out there too.

const IDP_USER = { username: "manager", password: "idp-secret-1", email: USERS.manager };
let idp: RunningIdp;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  const instance = e2eInstance();
  idp = await startSimpleSamlPhp(path.resolve(import.meta.dirname, `../.tmp/simplesamlphp-${instance.port}`), instance.samlIdpPort, [IDP_USER]);
});

// Other tests of this instance sign in with passwords: the firm goes back to local sign-on.
test.afterAll(async () => {
  idp?.stop();
  await restoreLocalSignOn();
});

test.describe("the control room without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an administrator sets the firm's identity provider up, is told what is wrong, and switches the firm to SAML", async ({ page, request }) => {
    await startSession(page, USERS.admin);
    await page.goto("/single-sign-on");
    await expect(page.getByRole("heading", { name: "What your identity provider needs" })).toBeVisible();
    const base = new URL(page.url()).origin;
    const spMetadata = await (await request.get("/auth/saml/metadata")).text();
    idp.trustServiceProvider({
      entityId: `${base}/auth/saml/metadata`,
      acs: `${base}/auth/saml/acs`,
      slo: `${base}/auth/saml/slo`,
      certificate: /<(?:ds:)?X509Certificate[^>]*>([^<]+)</.exec(spMetadata)![1]!,
    });
    await field(page, "Or upload: identity provider metadata XML").fill("<EntityDescriptor/>");
    await field(page, "Signing certificates").fill("not a certificate");
    await press(page, "Save");
    await expect(page.getByTestId("sso-error")).toHaveText("Enter the identity provider's certificates in PEM form.");
    await expect(field(page, "Signing certificates")).toHaveValue("not a certificate");
    await field(page, "Signing certificates").fill("");
    await press(page, "Save");
    await expect(page.getByTestId("sso-error")).toHaveText(
      "This is not SAML metadata of an identity provider with a sign-on address and a signing certificate.",
    );
    await expect(field(page, "Or upload: identity provider metadata XML")).toHaveValue("<EntityDescriptor/>");

    await field(page, "Or upload: identity provider metadata XML").fill(await (await fetch(idp.metadataUrl)).text());
    await field(page, "E-mail attribute").fill("email");
    await field(page, "Break-glass administrator").fill(USERS.admin);
    await press(page, "Save");
    await expect(page.getByText("Firm settings saved.")).toBeVisible();
    await expect(field(page, "Identity provider entity id")).toHaveValue(`${idp.origin}/saml2/idp/metadata.php`);

    await page.goto("/firm-information");
    await field(page, "Sign-on type").selectOption("saml");
    await press(page, "Save");
    await expect(page.getByText("Firm settings saved.")).toBeVisible();
  });
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`single sign-on with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("staff sign in through the identity provider and sign out there too", async ({ page }) => {
      await page.goto("/login");
      await page.getByRole("link", { name: "Sign in with single sign-on" }).click();
      await expect(page).toHaveURL(new RegExp(`^${idp.origin}/`));
      await page.locator("input[name=username]").fill(IDP_USER.username);
      await page.locator("input[name=password]").fill(IDP_USER.password);
      await page.locator("input[name=password]").press("Enter");
      // Without JavaScript the identity provider's post back is a button to press: the page's
      // <button>, not the <input> beside it that its stylesheet hides once it has loaded (a page
      // drawn before that shows both, and either posts the same form).
      if (!javaScriptEnabled) await page.locator("form button[type=submit]").click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

      // Signing out goes through the identity provider's single logout and back (redirects only:
      // every request is seen, none of them is a page that stays).
      const visited: string[] = [];
      page.on("request", (request) => visited.push(request.url()));
      await page.getByRole("button", { name: "Sign out" }).click();
      await expect(page).toHaveURL(/\/login$/);
      expect(visited.some((url) => url.startsWith(`${idp.origin}/saml2/idp/SingleLogoutService.php`))).toBe(true);
      await expect(page.getByText("You have been signed out.")).toBeVisible();
      await page.goto("/dashboard");
      await expect(page).toHaveURL(/\/login\?from=%2Fdashboard$/);

      // Signed out at the identity provider too: single sign-on asks for the password there again.
      await page.getByRole("link", { name: "Sign in with single sign-on" }).click();
      await expect(page).toHaveURL(new RegExp(`^${idp.origin}/`));
      await expect(page.locator("input[name=password]")).toBeVisible();
    });

    test("a password is refused to staff, and taken from the break-glass administrator", async ({ page }) => {
      await signIn(page, USERS.manager);
      await expect(page.getByTestId("login-error")).toContainText("This firm signs in with single sign-on.");
      await signedIn(page, USERS.admin);
    });
  });
}
