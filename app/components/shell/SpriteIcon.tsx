import type { DrawerIcon } from "../../common/resources/types";

/** The other icons every list page draws, kept in the drawer's sprite: sort links, buttons, the header's. */
export type PageIcon = "arrowUp" | "arrowDown" | "arrowsSort" | "plus" | "download" | "sun" | "moon" | "contrast" | "logout";
export type SpriteName = DrawerIcon | PageIcon;

// The sprite's address. Its query is raised whenever a symbol is added: browsers keep the sprite
// for a day, and a kept copy without the new symbol would draw nothing.
const SPRITE = "/icons.svg?v=2";

/**
 * An icon of the sprite, as a short reference instead of an inline drawing, stroked as Tabler
 * draws it (app.css `.sprite-icon`). Without `size`, app.css sizes it where it is drawn (the
 * drawer's links, the sort links).
 */
export function SpriteIcon({ name, size, className }: { name: SpriteName; size?: number; className?: string }) {
  return (
    <svg aria-hidden className={className ? `sprite-icon ${className}` : "sprite-icon"} width={size} height={size}>
      <use href={`${SPRITE}#${name}`} />
    </svg>
  );
}
