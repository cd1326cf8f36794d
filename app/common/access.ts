// Access levels and the route access keys of the user's role map (spec §6). Isomorphic:
// the API computes the map, the console reads it to guard pages and hide links.

export const ACCESS_LEVELS = ["DENY", "READ", "FULL"] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export const ACCESS_KEYS = {
  documentAccess: "document",
  inboxItemAccess: "inbox_item",
  dashboardAccess: "dashboard",
  envelopeAccess: "envelope",
  firmAccess: "firm",
  notificationRuleAccess: "notification_rule",
  jurisdictionGroupAccess: "jurisdiction_group",
  jurisdictionPreferenceAccess: "jurisdiction_preference",
  storagePolicyAccess: "storage_policy",
  userAccess: "user",
  timekeeperGroupAccess: "timekeeper_group",
  clientAccess: "client",
  caseAccess: "case",
  timekeeperAccess: "timekeeper",
  matterAccess: "matter",
  jurisdictionAccess: "jurisdiction",
  ignoredCaseAccess: "ignored_case",
  judgeAccess: "judge",
  departmentAccess: "department",
  locationAccess: "location",
  emailTemplateAccess: "email_template",
} as const;

export type AccessKey = keyof typeof ACCESS_KEYS;
export type UserRoleMap = Partial<Record<AccessKey, AccessLevel>>;

const rank: Record<AccessLevel, number> = { DENY: 0, READ: 1, FULL: 2 };

export function isAccessLevel(value: unknown): value is AccessLevel {
  return typeof value === "string" && (ACCESS_LEVELS as readonly string[]).includes(value);
}

/** The lower of two levels: a field can never grant more than its resource. */
export function lowerOf(a: AccessLevel, b: AccessLevel): AccessLevel {
  return rank[a] <= rank[b] ? a : b;
}

export function allows(level: AccessLevel | undefined, needed: "read" | "write"): boolean {
  if (!level) return false;
  return needed === "read" ? rank[level] >= rank.READ : level === "FULL";
}

/** A page opens when it has no key, or its key holds anything but DENY (missing counts as DENY). */
export function canOpen(role: UserRoleMap, key: AccessKey | null | undefined): boolean {
  if (!key) return true;
  const level = role[key];
  return level !== undefined && level !== "DENY";
}
