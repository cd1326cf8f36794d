import type { AccessKey } from "../shared/access";

export type DrawerGroup = "main" | "data" | "notices" | "firm" | "developer";

/** One row per console route (spec §2): its access key, its title key, its place in the drawer. */
export interface RouteEntry {
  path: string;
  accessKey: AccessKey | null;
  titleKey: string;
  /** Shown in the drawer once the page works; pages still to come stay out of it. */
  drawer?: DrawerGroup;
}

export const ROUTES: RouteEntry[] = [
  { path: "/dashboard", accessKey: "dashboardAccess", titleKey: "pages.dashboard", drawer: "main" },
  { path: "/inbox-items", accessKey: "inboxItemAccess", titleKey: "pages.inboxItems", drawer: "notices" },
  { path: "/ecfx-notification", accessKey: "envelopeAccess", titleKey: "pages.envelopes", drawer: "notices" },
  { path: "/firm-information", accessKey: "firmAccess", titleKey: "pages.firmInformation", drawer: "firm" },
  { path: "/dictionary", accessKey: "firmAccess", titleKey: "pages.dictionary" },
  { path: "/special-handling", accessKey: "firmAccess", titleKey: "pages.specialHandling" },
  { path: "/auto-case-creation", accessKey: "firmAccess", titleKey: "pages.autoCaseCreation", drawer: "firm" },
  { path: "/document-processing", accessKey: "firmAccess", titleKey: "pages.documentProcessing" },
  { path: "/webhooks", accessKey: "firmAccess", titleKey: "pages.webhooks" },
  { path: "/security-roles", accessKey: "firmAccess", titleKey: "pages.securityRoles" },
  { path: "/dms", accessKey: "firmAccess", titleKey: "pages.dms", drawer: "firm" },
  { path: "/provider-credentials", accessKey: "firmAccess", titleKey: "pages.providerCredentials" },
  { path: "/event-logs", accessKey: "firmAccess", titleKey: "pages.eventLogs" },
  { path: "/ethical-walls", accessKey: "firmAccess", titleKey: "pages.ethicalWalls", drawer: "firm" },
  { path: "/hierarchy", accessKey: "firmAccess", titleKey: "pages.hierarchy", drawer: "firm" },
  { path: "/abbreviations", accessKey: "firmAccess", titleKey: "pages.abbreviations", drawer: "firm" },
  { path: "/billing", accessKey: "firmAccess", titleKey: "pages.billing" },
  { path: "/notification-rule", accessKey: "notificationRuleAccess", titleKey: "pages.notificationRules", drawer: "notices" },
  { path: "/jurisdiction-groups", accessKey: "jurisdictionGroupAccess", titleKey: "pages.jurisdictionGroups" },
  { path: "/jurisdiction-preferences", accessKey: "jurisdictionPreferenceAccess", titleKey: "pages.jurisdictionPreferences" },
  { path: "/storage-policies", accessKey: "storagePolicyAccess", titleKey: "pages.storagePolicies", drawer: "firm" },
  { path: "/users", accessKey: "userAccess", titleKey: "pages.users", drawer: "firm" },
  { path: "/preference-groups", accessKey: "timekeeperGroupAccess", titleKey: "pages.preferenceGroups", drawer: "notices" },
  { path: "/clients", accessKey: "clientAccess", titleKey: "pages.clients", drawer: "data" },
  { path: "/cases", accessKey: "caseAccess", titleKey: "pages.cases", drawer: "data" },
  { path: "/timekeepers", accessKey: "timekeeperAccess", titleKey: "pages.timekeepers", drawer: "data" },
  { path: "/matters", accessKey: "matterAccess", titleKey: "pages.matters", drawer: "data" },
  { path: "/jurisdictions", accessKey: "jurisdictionAccess", titleKey: "pages.jurisdictions", drawer: "data" },
  { path: "/ecfx-jurisdictions", accessKey: "jurisdictionAccess", titleKey: "pages.ecfxJurisdictions", drawer: "data" },
  { path: "/ignored-cases", accessKey: "ignoredCaseAccess", titleKey: "pages.ignoredCases", drawer: "data" },
  { path: "/judges", accessKey: "judgeAccess", titleKey: "pages.judges", drawer: "data" },
  { path: "/departments", accessKey: "departmentAccess", titleKey: "pages.departments", drawer: "firm" },
  { path: "/locations", accessKey: "locationAccess", titleKey: "pages.locations", drawer: "firm" },
  { path: "/practice-groups", accessKey: "locationAccess", titleKey: "pages.practiceGroups", drawer: "firm" },
  { path: "/templates", accessKey: "emailTemplateAccess", titleKey: "pages.templates", drawer: "notices" },
  { path: "/profile", accessKey: null, titleKey: "pages.profile", drawer: "main" },
  { path: "/totest", accessKey: "firmAccess", titleKey: "pages.releaseNotes" },
  { path: "/dev", accessKey: "firmAccess", titleKey: "pages.dev", drawer: "developer" },
  { path: "/slow", accessKey: "firmAccess", titleKey: "pages.slow" },
  { path: "/demo", accessKey: "firmAccess", titleKey: "pages.demo" },
  { path: "/success", accessKey: null, titleKey: "pages.success" },
  { path: "/load-document", accessKey: "documentAccess", titleKey: "pages.loadDocument" },
  { path: "/load-notice", accessKey: "inboxItemAccess", titleKey: "pages.loadNotice" },
  { path: "/load-dms", accessKey: "documentAccess", titleKey: "pages.loadDms" },
];

/** The declared route a path belongs to (longest matching prefix), if any. */
export function routeFor(pathname: string): RouteEntry | undefined {
  return ROUTES.filter((r) => pathname === r.path || pathname.startsWith(`${r.path}/`)).sort((a, b) => b.path.length - a.path.length)[0];
}
