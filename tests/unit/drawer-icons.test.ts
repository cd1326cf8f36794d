import { describe, expect, it } from "vitest";
import { ICONS, iconSprite } from "../../app/components/shell/icon-sprite.server";
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

  it("draws every icon from one sprite: a symbol per icon name, with Tabler's own strokes inside", () => {
    const sprite = iconSprite();
    for (const name of Object.keys(ICONS)) expect(sprite).toMatch(new RegExp(`<symbol id="${name}" viewBox="0 0 24 24"><path `));
    expect(sprite.match(/<symbol /g)).toHaveLength(Object.keys(ICONS).length);
    // The strokes come from the drawing that uses a symbol, so they follow the text colour.
    expect(sprite).not.toContain("currentColor");
  });
});
