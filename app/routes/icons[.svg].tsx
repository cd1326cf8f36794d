import { iconSprite } from "../components/shell/icon-sprite.server";

let sprite: string | undefined;

/** The drawer's icons as one SVG of symbols (see icon-sprite.server.ts); the same for everyone. */
export function loader() {
  sprite ??= iconSprite();
  return new Response(sprite, {
    headers: { "Content-Type": "image/svg+xml; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
