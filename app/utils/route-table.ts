import { type AccessKey, type UserRoleMap, canOpen } from "../common/access";
import type { ProductPart } from "../common/entitled-features";
import { REGISTRY } from "../common/resources";
import { type DrawerGroup, type DrawerIcon, type ResourceDef, resourceTitleKey } from "../common/resources/types";

export type { DrawerGroup };

/** One row per console route (spec §2): its access key, its title key, its place in the drawer. */
export interface RouteEntry {
  path: string;
  accessKey: AccessKey | null;
  titleKey: string;
  /** Shown in the drawer once the page works; pages still to come stay out of it. */
  drawer?: DrawerGroup;
  icon?: DrawerIcon;
  /** A part only some firms or installations have: elsewhere the page is unknown and out of the drawer. */
  part?: ProductPart;
}

/** Each entity's list page, as its declaration says. */
const ENTITY_ROUTES: RouteEntry[] = Object.values(REGISTRY as Record<string, ResourceDef>).flatMap((def) =>
  def.page
    ? [
        {
          path: `/${def.key}`,
          accessKey: def.page.accessKey ?? def.accessKey,
          titleKey: def.page.titleKey ?? resourceTitleKey(def.key),
          drawer: def.page.drawer,
          icon: def.page.icon,
        },
      ]
    : [],
);

/** The pages that are not an entity's list. */
const PAGE_ROUTES: RouteEntry[] = [
  { path: "/dashboard", accessKey: "dashboardAccess", titleKey: "pages.dashboard", drawer: "main", icon: "dashboard" },
  { path: "/firm-information", accessKey: "firmAccess", titleKey: "pages.firmInformation", drawer: "firm", icon: "buildingCommunity" },
  { path: "/dictionary", accessKey: "firmAccess", titleKey: "pages.dictionary", drawer: "firm", icon: "book" },
  { path: "/special-handling", accessKey: "firmAccess", titleKey: "pages.specialHandling", drawer: "firm", icon: "handStop" },
  { path: "/single-sign-on", accessKey: "firmAccess", titleKey: "pages.singleSignOn" },
  { path: "/hierarchy", accessKey: "firmAccess", titleKey: "pages.hierarchy", drawer: "firm", icon: "hierarchy" },
  { path: "/scim-provisioning", accessKey: "firmAccess", titleKey: "pages.scim", drawer: "firm", icon: "usersGroup" },
  { path: "/profile", accessKey: null, titleKey: "pages.profile", drawer: "main", icon: "userCircle" },
  { path: "/totest", accessKey: "firmAccess", titleKey: "pages.releaseNotes", drawer: "developer", icon: "notes" },
  { path: "/dev", accessKey: "firmAccess", titleKey: "pages.dev", drawer: "developer", icon: "code" },
  { path: "/slow", accessKey: "firmAccess", titleKey: "pages.slow", drawer: "developer", icon: "gauge" },
  { path: "/demo", accessKey: "firmAccess", titleKey: "pages.demo", drawer: "developer", icon: "refresh", part: "DEMO_RESET" },
  { path: "/success", accessKey: null, titleKey: "pages.success" },
  { path: "/load-document", accessKey: "documentAccess", titleKey: "pages.loadDocument" },
  { path: "/load-notice", accessKey: "inboxItemAccess", titleKey: "pages.loadNotice" },
  { path: "/load-dms", accessKey: "documentAccess", titleKey: "pages.loadDms" },
];

export const ROUTES: RouteEntry[] = [...PAGE_ROUTES, ...ENTITY_ROUTES];

/** The routes, longest path first: the first whose path prefixes a page's is the one it belongs to. */
const LONGEST_FIRST = [...ROUTES].sort((a, b) => b.path.length - a.path.length);

/** The declared route a path belongs to (longest matching prefix), if any. */
export function routeFor(pathname: string): RouteEntry | undefined {
  // Asked for every drawer entry of every page: compares in place, building no string or list.
  return LONGEST_FIRST.find((r) => pathname.startsWith(r.path) && (pathname.length === r.path.length || pathname[r.path.length] === "/"));
}

const partAvailable = (route: RouteEntry | undefined, parts: readonly ProductPart[]) => !route?.part || parts.includes(route.part);

/** Whether a page belongs to a part of the product the firm has (decision 048); a page of no part always does. */
export function pathAvailable(pathname: string, parts: readonly ProductPart[]): boolean {
  return partAvailable(routeFor(pathname), parts);
}

/** The drawer's pages: those the role may open, of the parts the firm has. */
export function drawerRoutes(role: UserRoleMap, parts: readonly ProductPart[]): RouteEntry[] {
  // A drawer entry's own path belongs to it: no longer path can prefix it.
  return ROUTES.filter((r) => r.drawer && canOpen(role, r.accessKey) && partAvailable(r, parts));
}
