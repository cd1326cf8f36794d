import { describe, expect, it } from "vitest";
import { ICONS } from "../../app/components/shell/DrawerNav";
import { ROUTES } from "../../app/utils/route-table";

describe("the drawer", () => {
  const entries = ROUTES.filter((r) => r.drawer);

  it("lists pages", () => {
    expect(entries.length).toBeGreaterThan(20);
  });

  it("gives every entry an icon it can draw", () => {
    const without = entries.filter((r) => !r.icon || !ICONS[r.icon]).map((r) => r.path);
    expect(without).toEqual([]);
  });
});
