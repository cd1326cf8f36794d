import { randomBytes } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { field, open, press } from "./forms";
import { USERS, startSession } from "./helpers";

// /scim-provisioning: an administrator makes a provisioning token (shown once), the identity
// provider reaches /scim/v2 at the console's address with it, the administrator maps one of its
// groups to a role and revokes the token, with JavaScript on and off.

const tag = randomBytes(4).toString("hex");
const SCIM = "application/scim+json";

for (const js of [false, true]) {
  test.describe(`SCIM provisioning ${js ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled: js });

    test("a token made on the page opens /scim/v2 until it is revoked; a group is mapped to a role", async ({ page }) => {
      const label = `Entra ${js ? "js" : "nojs"} ${tag}`;
      const group = `Paralegals ${js ? "js" : "nojs"} ${tag}`;
      await startSession(page, USERS.admin);
      await open(page, js, "/scim-provisioning");
      await expect(page.getByTestId("page-title")).toHaveText("SCIM provisioning");
      await expect(page.getByTestId("scim-endpoint")).toHaveText(/\/scim\/v2$/);
      await field(page, "Name of the token").fill(label);
      await press(page, "Create token");
      await expect(page.getByText("The token was created. Copy it now")).toBeVisible();
      const token = (await page.getByTestId("scim-new-token").textContent())!.trim();
      expect(token.length).toBeGreaterThan(30);

      const scim = { authorization: `Bearer ${token}`, "content-type": SCIM };
      const config = await page.request.get("/scim/v2/ServiceProviderConfig", { headers: scim });
      expect(config.status()).toBe(200);
      expect(config.headers()["content-type"]).toContain(SCIM);
      const made = await page.request.post("/scim/v2/Groups", {
        headers: scim,
        data: JSON.stringify({ schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"], displayName: group }),
      });
      expect(made.status()).toBe(201);

      // Shown once: the page opened again lists the token by its name, never the token.
      await open(page, js, "/scim-provisioning");
      await expect(page.getByRole("form", { name: label })).toBeVisible();
      await expect(page.getByText(token)).toHaveCount(0);
      // With a token and a group listed, axe finds no serious or critical fault on the page (axe
      // runs in the page, so with JavaScript; the accessibility spec checks server markup apart).
      if (js) {
        const faults = (await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze()).violations.filter(
          (v) => v.impact === "serious" || v.impact === "critical",
        );
        expect(faults.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
      }

      await page
        .getByRole("row", { name: new RegExp(group) })
        .getByLabel("Security role")
        .selectOption({ label: "Docketing" });
      await press(page, "Save mappings");
      await expect(page.getByText("The group mappings were saved.")).toBeVisible();
      await open(page, js, "/scim-provisioning");
      await expect(
        page
          .getByRole("row", { name: new RegExp(group) })
          .getByLabel("Security role")
          .locator("option:checked"),
      ).toHaveText("Docketing");

      await page.getByRole("form", { name: label }).getByRole("button", { name: "Revoke" }).click();
      await expect(page.getByText("The token was revoked")).toBeVisible();
      await expect(page.getByRole("form", { name: label })).toHaveCount(0);
      expect((await page.request.get("/scim/v2/Users", { headers: scim })).status()).toBe(401);
    });

    test("a user who is not an administrator is told the page is for administrators", async ({ page }) => {
      await startSession(page, USERS.manager);
      await open(page, false, "/scim-provisioning");
      await expect(page.getByText("Only administrators can manage SCIM provisioning.")).toBeVisible();
    });
  });
}
