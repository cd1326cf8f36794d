import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { SpriteName } from "./SpriteIcon";
import {
  IconAdjustmentsCog,
  IconAlphabetLatin,
  IconArrowDown,
  IconArrowUp,
  IconArrowsSort,
  IconContrast,
  IconDownload,
  IconLogout,
  IconMoon,
  IconPlus,
  IconSun,
  IconBellRinging,
  IconBook,
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
  IconReceipt,
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

// The sprite's icons: the drawer's (the route table names one for each page it shows) and the
// other icons every list page draws (SpriteIcon's PageIcon).
export const ICONS: Record<SpriteName, Icon> = {
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
  book: IconBook,
  receipt: IconReceipt,
  arrowUp: IconArrowUp,
  arrowDown: IconArrowDown,
  arrowsSort: IconArrowsSort,
  plus: IconPlus,
  download: IconDownload,
  sun: IconSun,
  moon: IconMoon,
  contrast: IconContrast,
  logout: IconLogout,
};

/**
 * Every drawer icon once, as a symbol of one SVG file the browser keeps: each page then draws an
 * icon as a short reference to it instead of some forty inline drawings (about 13 KB a page).
 */
export function iconSprite(): string {
  const symbols = (Object.entries(ICONS) as [SpriteName, (typeof ICONS)[SpriteName]][]).map(([name, Icon]) => {
    const markup = renderToStaticMarkup(createElement(Icon, { size: 24 }));
    const inner = /^<svg[^>]*>([\s\S]*)<\/svg>$/.exec(markup)?.[1] ?? "";
    return `<symbol id="${name}" viewBox="0 0 24 24">${inner}</symbol>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg">${symbols.join("")}</svg>`;
}
