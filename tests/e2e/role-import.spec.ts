import { expect, test } from "@playwright/test";
import { REGISTRY } from "../../app/common/resources";
import { USERS, signedIn, startSession } from "./helpers";

// Security roles are made in the role editor, where the permission matrix and its rules live:
// their table offers no import, and /security-roles/import says where roles are made instead of
// failing. No list's /<key>/import or /<key>/<word> address ends in a server error.

for (const js of [true, false]) {
  test.describe(`importing security roles with JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("the roles' import address points to the role editor; an unknown role is a 404 page", async ({ page }) => {
      await startSession(page, USERS.admin);
      await page.goto("/security-roles");
      await expect(page.getByRole("link", { name: "New Security role" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Import", exact: true })).toHaveCount(0);

      const answer = await page.goto("/security-roles/import");
      expect(answer?.status()).toBe(200);
      await expect(page.getByTestId("roles-not-imported")).toContainText("Security roles are not imported");
      await page.getByRole("link", { name: "Create a role in the role editor" }).click();
      await expect(page).toHaveURL(/\/security-roles\/new$/);

      const unknown = await page.goto("/security-roles/no-such-role");
      expect(unknown?.status()).toBe(404);
      await expect(page.getByText("Not found.").or(page.getByTestId("not-found")).first()).toBeVisible();
    });
  });
}

test("no list's import or other address answers a server error", async ({ page }) => {
  await signedIn(page, USERS.admin);
  const keys = Object.values(REGISTRY)
    .filter((def) => def.page)
    .map((def) => def.key);
  for (const key of keys) {
    for (const word of ["import", "export", "new", "no-such-word"]) {
      const answer = await page.request.get(`/${key}/${word}`, { maxRedirects: 0 });
      expect(answer.status(), `/${key}/${word}`).toBeLessThan(500);
    }
  }
  // The roles' download is the roles' CSV, not the role editor.
  const roles = await page.request.get("/security-roles/export");
  expect(roles.headers()["content-type"]).toContain("text/csv");
  expect(await roles.text()).toContain("Administrator");
});
