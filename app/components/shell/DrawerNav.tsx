import { useMantineTheme } from "../../utils/mantine";
import type { MouseEvent } from "react";
import { matchPath, useLocation, useNavigate } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { UserRoleMap } from "../../common/access";
import type { ProductPart } from "../../common/entitled-features";
import { type DrawerGroup, drawerRoutes } from "../../utils/route-table";
import { useHydrated } from "../../utils/use-hydrated";
import { SpriteIcon } from "./SpriteIcon";

/** NavLink's rule for its active link: the path itself or a page under it, in any letter case. */
const isCurrent = (pathname: string, path: string) => matchPath({ path, end: false }, pathname) !== null;

const GROUP_ORDER: DrawerGroup[] = ["main", "notices", "data", "firm", "developer"];

/**
 * The drawer lists the working pages the user's role may open, grouped. Plain links styled like
 * Mantine's NavLink (app/styles/app.css): every page draws some forty of them, and as Mantine
 * components they took a fifth of a page's server render.
 */
export function DrawerNav({ role, parts }: { role: UserRoleMap; parts: readonly ProductPart[] }) {
  const { t } = useTranslation();
  const { focusRing } = useMantineTheme();
  const entries = drawerRoutes(role, parts);
  const linkClass = `drawer-link mantine-focus-${focusRing}`;
  const hydrated = useHydrated();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // The links stay the same elements once the page is interactive: one replaced between the
  // press and the release of a click loses the click. Until then the browser follows them.
  const follow = (event: MouseEvent<HTMLElement>) => {
    const link = (event.target as Element).closest("a");
    const plain = event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;
    if (!hydrated || !link || event.defaultPrevented || !plain) return;
    event.preventDefault();
    navigate(link.getAttribute("href") ?? "/");
  };
  return (
    <nav className="drawer-nav" onClick={follow}>
      {GROUP_ORDER.map((group) => {
        const items = entries.filter((r) => r.drawer === group);
        if (items.length === 0) return null;
        return (
          <div className="drawer-group" key={group}>
            {/* Full text colour: Mantine's dimmed grey reads below 4.5:1 on the drawer in both schemes. */}
            <p className="drawer-group-title">{t(`drawerGroups.${group}`)}</p>
            {items.map((r) => {
              // The icon drawn as Tabler draws it (18 px, stroke 1.6), set by app.css rather than on
              // each of some forty icons a page; the label is the link's own text.
              const content = (
                <>
                  {r.icon ? <SpriteIcon name={r.icon} /> : null}
                  {t(r.titleKey)}
                </>
              );
              // Plain links marked as Remix's NavLink marks the page's own (and its sub-pages'):
              // forty Remix links were a tenth of a list page's server render.
              return (
                <a key={r.path} href={r.path} className={linkClass} aria-current={isCurrent(pathname, r.path) ? "page" : undefined}>
                  {content}
                </a>
              );
            })}
          </div>
        );
      })}
    </nav>
  );
}
