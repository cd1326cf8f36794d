import { useMantineTheme } from "@mantine/core";
import { NavLink as RemixNavLink } from "@remix-run/react";
import {
  IconAdjustmentsCog,
  IconAlphabetLatin,
  IconBellRinging,
  IconBriefcase,
  IconBuilding,
  IconBuildingBank,
  IconBuildingCommunity,
  IconCode,
  IconDatabase,
  IconFolders,
  IconGauge,
  IconGavel,
  IconHandStop,
  IconHistory,
  IconHierarchy2,
  IconInbox,
  IconLayoutDashboard,
  IconMail,
  IconMapPin,
  IconNotes,
  IconRefresh,
  IconScale,
  IconShieldLock,
  IconSitemap,
  IconTemplate,
  IconUserCircle,
  IconUserOff,
  IconUsers,
  IconUsersGroup,
  IconUserStar,
  IconWall,
  IconWebhook,
  IconWand,
  IconWorld,
  type Icon,
} from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import type { UserRoleMap } from "../../common/access";
import type { ProductPart } from "../../common/entitled-features";
import type { DrawerIcon } from "../../common/resources/types";
import { type DrawerGroup, drawerRoutes } from "../../utils/route-table";

// The drawer's vocabulary of icons; the route table names one for each page it shows.
export const ICONS: Record<DrawerIcon, Icon> = {
  dashboard: IconLayoutDashboard,
  userCircle: IconUserCircle,
  code: IconCode,
  inbox: IconInbox,
  mail: IconMail,
  scale: IconScale,
  briefcase: IconBriefcase,
  buildingBank: IconBuildingBank,
  userStar: IconUserStar,
  world: IconWorld,
  building: IconBuilding,
  gavel: IconGavel,
  userOff: IconUserOff,
  users: IconUsers,
  sitemap: IconSitemap,
  mapPin: IconMapPin,
  usersGroup: IconUsersGroup,
  alphabet: IconAlphabetLatin,
  adjustments: IconAdjustmentsCog,
  template: IconTemplate,
  bellRinging: IconBellRinging,
  wand: IconWand,
  folders: IconFolders,
  database: IconDatabase,
  wall: IconWall,
  buildingCommunity: IconBuildingCommunity,
  hierarchy: IconHierarchy2,
  history: IconHistory,
  handStop: IconHandStop,
  notes: IconNotes,
  gauge: IconGauge,
  refresh: IconRefresh,
  shieldLock: IconShieldLock,
  webhook: IconWebhook,
};

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
  return (
    <nav className="drawer-nav">
      {GROUP_ORDER.map((group) => {
        const items = entries.filter((r) => r.drawer === group);
        if (items.length === 0) return null;
        return (
          <div className="drawer-group" key={group}>
            {/* Full text colour: Mantine's dimmed grey reads below 4.5:1 on the drawer in both schemes. */}
            <p className="drawer-group-title">{t(`drawerGroups.${group}`)}</p>
            {items.map((r) => {
              const Icon = r.icon ? ICONS[r.icon] : null;
              return (
                // Remix marks the page's own link (and its sub-pages') aria-current="page".
                <RemixNavLink key={r.path} to={r.path} className={linkClass}>
                  {Icon ? (
                    <span className="drawer-link-icon">
                      <Icon size={18} stroke={1.6} aria-hidden />
                    </span>
                  ) : null}
                  <span className="drawer-link-label">{t(r.titleKey)}</span>
                </RemixNavLink>
              );
            })}
          </div>
        );
      })}
    </nav>
  );
}
