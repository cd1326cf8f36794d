import { describe, expect, it } from "vitest";
import { type RecipientInput, type TimekeeperInput, planNotifications, resolveRecipients, ruleMatches } from "./recipients";

const firm = { deliveryMethod: "PDF", cadence: "REALTIME", additionalEmails: [] as string[] };
const daily = { id: "g-daily", deliveryMethod: "WEB_LINK", cadence: "DAILY" };
const inherit = { id: "g-inherit", deliveryMethod: "INHERIT_METHOD", cadence: "INHERIT_CADENCE" };

const tk = (id: string, extra: Partial<TimekeeperInput> = {}): TimekeeperInput => ({
  id,
  email: `${id}@firm.test`,
  additionalEmails: [],
  active: true,
  group: null,
  ...extra,
});

const input = (over: Partial<RecipientInput>): RecipientInput => ({
  firm,
  timekeepers: [],
  rules: [],
  noticeText: "MOTION to Dismiss for Failure to State a Claim",
  timekeeperIdByEmail: new Map(),
  isWalledOut: () => false,
  ...over,
});

describe("recipients of a notice", () => {
  it("gives each timekeeper their group's method and cadence, and the firm's for inherit or no group", () => {
    const got = resolveRecipients(input({ timekeepers: [tk("ann", { group: daily }), tk("bob", { group: inherit }), tk("cy")] }));
    expect(got.map((r) => [r.email, r.groupId, r.method, r.cadence])).toEqual([
      ["ann@firm.test", "g-daily", "WEB_LINK", "DAILY"],
      ["bob@firm.test", "g-inherit", "PDF", "REALTIME"],
      ["cy@firm.test", null, "PDF", "REALTIME"],
    ]);
  });

  it("adds additional addresses of timekeepers and of the firm once each, case-insensitively", () => {
    const got = resolveRecipients(
      input({
        firm: { ...firm, additionalEmails: ["Docket@Firm.test", "ANN@firm.test"] },
        timekeepers: [tk("ann", { additionalEmails: ["assistant@firm.test", "docket@firm.test"], group: daily })],
      }),
    );
    expect(got.map((r) => [r.email, r.timekeeperId, r.cadence])).toEqual([
      ["ann@firm.test", "ann", "DAILY"],
      ["assistant@firm.test", "ann", "DAILY"],
      ["docket@firm.test", "ann", "DAILY"],
    ]);
  });

  it("withholds every address of a walled-out timekeeper, even when the firm or a rule names it", () => {
    const walled = (id: string) => id === "eve";
    const got = resolveRecipients(
      input({
        firm: { ...firm, additionalEmails: ["eve@firm.test"] },
        timekeepers: [tk("ann"), tk("eve", { additionalEmails: ["eve.home@firm.test"] })],
        rules: [{ condition: "", include: ["eve.home@firm.test", "mallory@firm.test"], exclude: [] }],
        timekeeperIdByEmail: new Map([["mallory@firm.test", "eve"]]),
        isWalledOut: walled,
      }),
    );
    expect(got.filter((r) => r.walledOut).map((r) => r.email)).toEqual(["eve@firm.test", "eve.home@firm.test", "mallory@firm.test"]);
    expect(got.filter((r) => !r.walledOut).map((r) => r.email)).toEqual(["ann@firm.test"]);
  });

  it("applies rules whose words all appear in the notice: includes added, excludes removed", () => {
    const rules = [
      { condition: "dismiss motion", include: ["partner@firm.test"], exclude: ["ann@firm.test"] },
      { condition: "sanctions", include: ["nobody@firm.test"], exclude: [] },
      { condition: "", include: ["all@firm.test"], exclude: [] },
    ];
    const got = resolveRecipients(input({ timekeepers: [tk("ann"), tk("bob")], rules }));
    expect(got.map((r) => r.email)).toEqual(["bob@firm.test", "partner@firm.test", "all@firm.test"]);
    expect(ruleMatches("MOTION dismiss", "motion to DISMISS")).toBe(true);
    expect(ruleMatches("order", "MOTION to Dismiss")).toBe(false);
  });

  it("leaves out inactive timekeepers", () => {
    expect(resolveRecipients(input({ timekeepers: [tk("ann", { active: false })] }))).toEqual([]);
  });
});

describe("notification rows", () => {
  const recipient = (cadence: string, method = "PDF", walledOut = false) =>
    resolveRecipients(input({ timekeepers: [tk("ann", { group: { id: "g", deliveryMethod: method, cadence } })], isWalledOut: () => walledOut }));

  it("plans one row per cadence", () => {
    expect(planNotifications(recipient("REALTIME")).map((p) => [p.cadence, p.status])).toEqual([["realtime", "pending"]]);
    expect(planNotifications(recipient("DAILY")).map((p) => [p.cadence, p.status])).toEqual([["digest", "pending"]]);
    expect(planNotifications(recipient("DAILY_AND_REALTIME")).map((p) => [p.cadence, p.status])).toEqual([
      ["realtime", "pending"],
      ["digest", "pending"],
    ]);
  });

  it("records why nothing is sent: never, filed only, ethical wall", () => {
    expect(planNotifications(recipient("NEVER")).map((p) => [p.status, p.reasonKey])).toEqual([["skipped", "mail:notifyReasonNever"]]);
    expect(planNotifications(recipient("REALTIME", "PDF_NO_EMAIL")).map((p) => [p.status, p.reasonKey])).toEqual([["skipped", "mail:notifyReasonNoEmail"]]);
    expect(planNotifications(recipient("DAILY_AND_REALTIME", "PDF", true)).map((p) => [p.status, p.reasonKey])).toEqual([
      ["withheld", "mail:notifyReasonWall"],
    ]);
  });
});
