import type { DeliveryMethod, NotificationCadence } from "../../app/common/resources/notifications";

// Who hears of one notice, and how: pure, so every rule of precedence is tested without a
// database. The loader (recipient-inputs.ts) gathers what these functions need.

export type Method = Exclude<DeliveryMethod, "INHERIT_METHOD">;
export type Cadence = Exclude<NotificationCadence, "INHERIT_CADENCE">;

/** What a preference group says; INHERIT_* and empty values take the firm's. */
export interface GroupPreferences {
  id: string;
  deliveryMethod: string;
  cadence: string;
}

export interface FirmPreferences {
  deliveryMethod: string;
  cadence: string;
  additionalEmails: string[];
}

export interface TimekeeperInput {
  id: string;
  email: string;
  additionalEmails: string[];
  active: boolean;
  group: GroupPreferences | null;
}

export interface RuleInput {
  /** Words that must all appear in the notice's text; empty: every notice. */
  condition: string;
  include: string[];
  exclude: string[];
}

export interface RecipientInput {
  firm: FirmPreferences;
  /** The case's assigned timekeepers. */
  timekeepers: TimekeeperInput[];
  rules: RuleInput[];
  /** Docket text and description of the notice, which rule conditions are matched against. */
  noticeText: string;
  /** Timekeepers whose primary address is one of the firm-level or rule addresses. */
  timekeeperIdByEmail: ReadonlyMap<string, string>;
  isWalledOut(timekeeperId: string): boolean;
}

export interface Recipient {
  email: string;
  timekeeperId: string | null;
  groupId: string | null;
  method: Method;
  cadence: Cadence;
  /** Kept out by an ethical wall: recorded, never told. */
  walledOut: boolean;
}

const METHODS: readonly Method[] = ["PDF", "WEB_LINK", "DMS_LINK", "PDF_AND_DMS_LINK", "PDF_NO_EMAIL", "PDF_AND_DMS_LINK_NO_EMAIL"];
const CADENCES: readonly Cadence[] = ["REALTIME", "DAILY", "NEVER", "DAILY_AND_REALTIME"];

const asMethod = (value: string): Method | null => (METHODS.includes(value as Method) ? (value as Method) : null);
const asCadence = (value: string): Cadence | null => (CADENCES.includes(value as Cadence) ? (value as Cadence) : null);

/** The firm's own defaults; a firm that says "inherit" itself gets the product's (PDF, at once). */
export function firmMethod(firm: FirmPreferences): Method {
  return asMethod(firm.deliveryMethod) ?? "PDF";
}

export function firmCadence(firm: FirmPreferences): Cadence {
  return asCadence(firm.cadence) ?? "REALTIME";
}

export function effectiveMethod(group: GroupPreferences | null, firm: FirmPreferences): Method {
  return (group && asMethod(group.deliveryMethod)) || firmMethod(firm);
}

export function effectiveCadence(group: GroupPreferences | null, firm: FirmPreferences): Cadence {
  return (group && asCadence(group.cadence)) || firmCadence(firm);
}

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** Whether every word of the rule's condition appears in the notice (case does not matter). */
export function ruleMatches(condition: string, noticeText: string): boolean {
  const words = condition.toLowerCase().split(/\s+/).filter(Boolean);
  const text = noticeText.toLowerCase();
  return words.every((word) => text.includes(word));
}

/**
 * Everyone to tell about the notice, one entry per address. Precedence: an address of a
 * walled-out timekeeper is withheld whatever else names it; then the assigned timekeepers in
 * order (their group's preferences), the firm's additional recipients and the matching rules'
 * additions (the firm's defaults); addresses a matching rule excludes are dropped.
 */
export function resolveRecipients(input: RecipientInput): Recipient[] {
  const { firm } = input;
  const byEmail = new Map<string, Recipient>();
  const add = (email: string, recipient: Omit<Recipient, "email">) => {
    const key = normaliseEmail(email);
    if (key && !byEmail.has(key)) byEmail.set(key, { email: key, ...recipient });
  };
  const addressesOf = (tk: TimekeeperInput) => [tk.email, ...tk.additionalEmails];
  const firmDefaults = { groupId: null, method: firmMethod(firm), cadence: firmCadence(firm) };

  for (const tk of input.timekeepers.filter((t) => input.isWalledOut(t.id))) {
    const prefs = { timekeeperId: tk.id, groupId: tk.group?.id ?? null, method: effectiveMethod(tk.group, firm), cadence: effectiveCadence(tk.group, firm) };
    for (const email of addressesOf(tk)) add(email, { ...prefs, walledOut: true });
  }
  for (const tk of input.timekeepers.filter((t) => t.active && !input.isWalledOut(t.id))) {
    const prefs = { timekeeperId: tk.id, groupId: tk.group?.id ?? null, method: effectiveMethod(tk.group, firm), cadence: effectiveCadence(tk.group, firm) };
    for (const email of addressesOf(tk)) add(email, { ...prefs, walledOut: false });
  }

  const matching = input.rules.filter((rule) => ruleMatches(rule.condition, input.noticeText));
  const firmLevel = [...firm.additionalEmails, ...matching.flatMap((rule) => rule.include)];
  for (const email of firmLevel) {
    const timekeeperId = input.timekeeperIdByEmail.get(normaliseEmail(email)) ?? null;
    add(email, { ...firmDefaults, timekeeperId, walledOut: timekeeperId !== null && input.isWalledOut(timekeeperId) });
  }

  const excluded = new Set(matching.flatMap((rule) => rule.exclude).map(normaliseEmail));
  return [...byEmail.values()].filter((r) => r.walledOut || !excluded.has(r.email));
}

export type RowCadence = "realtime" | "digest";
export type RowStatus = "pending" | "sent" | "withheld" | "skipped" | "failed";

/** One notification row to record; `reasonKey` names the catalogue entry of the reason. */
export interface PlannedNotification {
  recipient: Recipient;
  cadence: RowCadence;
  status: "pending" | "withheld" | "skipped";
  reasonKey: string | null;
}

const NO_EMAIL: readonly Method[] = ["PDF_NO_EMAIL", "PDF_AND_DMS_LINK_NO_EMAIL"];

/** Whether the method sends mail at all (the *_NO_EMAIL methods only file the notice). */
export const sendsEmail = (method: string): boolean => !NO_EMAIL.includes(method as Method);

/**
 * The rows a recipient gets: REALTIME one mail now, DAILY one line in the digest,
 * DAILY_AND_REALTIME both; NEVER, a method without e-mail and a wall one row saying why not.
 */
export function planNotifications(recipients: Recipient[]): PlannedNotification[] {
  return recipients.flatMap((recipient): PlannedNotification[] => {
    const first: RowCadence = recipient.cadence === "DAILY" ? "digest" : "realtime";
    if (recipient.walledOut) return [{ recipient, cadence: first, status: "withheld", reasonKey: "mail:notifyReasonWall" }];
    if (recipient.cadence === "NEVER") return [{ recipient, cadence: first, status: "skipped", reasonKey: "mail:notifyReasonNever" }];
    if (!sendsEmail(recipient.method)) return [{ recipient, cadence: first, status: "skipped", reasonKey: "mail:notifyReasonNoEmail" }];
    const cadences: RowCadence[] = recipient.cadence === "DAILY_AND_REALTIME" ? ["realtime", "digest"] : [first];
    return cadences.map((cadence) => ({ recipient, cadence, status: "pending", reasonKey: null }));
  });
}
