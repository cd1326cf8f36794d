// Court and provider mail is never "not a notice" unless it is positively something else
// (decision 092): who counts as a court or a provider, and what each kind of message becomes.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseNoticeEmail } from "../../../server/notices";
import { noticeKey } from "../../../server/notices/classify";
import { courtHost, firmListedOrigin } from "../../../server/notices/court-origin";

const message = (headers: string[], body: string, type = "text/plain; charset=utf-8") =>
  [...headers, "MIME-Version: 1.0", `Content-Type: ${type}`, "", body].join("\r\n");

describe("court and provider hosts", () => {
  it.each([
    ["ECF@txed.uscourts.gov", "uscourts.gov"],
    ["https://ecf.cand.uscourts.gov/doc1/035123", "uscourts.gov"],
    ["ACMS@ca9.fedcourts.us", "fedcourts.us"],
    ["https://ca2-showdoc.azurewebsites.us/NDA/0b1c", "ca2-showdoc.azurewebsites.us"],
    ["no-reply@sc-us.gov", "sc-us.gov"],
    ["https://www.supremecourt.gov/search.aspx?filename=/docket/docketfiles/html/public/25-112.html", "supremecourt.gov"],
    ["efilingmail@tylerhost.net", "tylerhost.net"],
    ["no-reply@efiletexas.gov", "efiletexas.gov"],
    ["service@fileandservexpress.com", "fileandservexpress.com"],
    // Government hosts that are a court's by their name.
    ["enotifications@courts.in.gov", "courts.in.gov"],
    ["noreply@txcourts.gov", "txcourts.gov"],
    ["efiling@jud.ct.gov", "jud.ct.gov"],
    ["noreply@dawson.ustaxcourt.gov", "dawson.ustaxcourt.gov"],
  ])("%s is court or provider mail (%s)", (value, host) => {
    expect(courtHost(value)).toBe(host);
  });

  it.each([
    ["news@docketing-digest.test"],
    ["alerts@courtlistener.com"],
    ["x@uscourts.gov.example.com"],
    ["https://other.azurewebsites.us/x"],
    ["clerk@county.example.gov"],
  ])("%s is not", (value) => {
    expect(courtHost(value)).toBeNull();
  });

  it("a firm's own list names addresses exactly and domains with their sub-domains", () => {
    const listed = ["clerk@county.example.gov", "efile.example.com"];
    expect(firmListedOrigin(["someone@county.example.gov"], listed)).toBeNull();
    expect(firmListedOrigin(["Clerk@County.Example.gov"], listed)).toBe("Clerk@County.Example.gov");
    expect(firmListedOrigin(["noreply@mail.efile.example.com"], listed)).toBe("noreply@mail.efile.example.com");
    expect(firmListedOrigin(["noreply@notefile.example.com"], listed)).toBeNull();
  });
});

describe("court mail that no parser reads goes to a person", () => {
  it("from a court sender, in no layout we know", async () => {
    const raw = message(["From: ECF Help Desk <ecf_help@txed.uscourts.gov>", "Subject: Your filing"], "Your filing was received and is being reviewed.");
    expect(await parseNoticeEmail(raw)).toEqual({ kind: "unrecognised", reason: "mail from a court or e-filing provider (uscourts.gov) that no parser reads" });
  });

  it("from a provider, with an empty body", async () => {
    const raw = message(["From: efilingmail@tylerhost.net", "Subject: Filing Submitted for Case: 49D01-2401-PL-000123; Envelope Number: 88112233"], "");
    expect((await parseNoticeEmail(raw)).kind).toBe("unrecognised");
  });

  it("forwarded by a colleague: the quoted sender is a court's", async () => {
    const raw = message(
      ["From: Pat Lee <plee@lawfirm.test>", "Subject: FW: please look"],
      "this didn't process correctly\n\n-----Original Message-----\nFrom: no-reply@sc-us.gov\nSent: Monday\nSubject: Supreme Court Electronic Filing System\n\nSomething new happened in your case.",
    );
    expect(await parseNoticeEmail(raw)).toEqual({ kind: "unrecognised", reason: "mail from a court or e-filing provider (sc-us.gov) that no parser reads" });
  });

  it("only its links are a court's", async () => {
    const raw = message(
      ["From: docketing@lawfirm.test", "Subject: new entry"],
      '<p>See <a href="https://ecf.nysd.uscourts.gov/cgi-bin/DktRpt.pl?123">the docket</a>.</p>',
      "text/html; charset=utf-8",
    );
    expect((await parseNoticeEmail(raw)).kind).toBe("unrecognised");
  });

  it("a court's mailing-list message that links to a court document is not a newsletter", async () => {
    const raw = message(
      ["From: cmecf@nysd.uscourts.gov", "Subject: Order", "List-Id: <orders.nysd.uscourts.gov>", "Precedence: bulk"],
      '<p>An order: <a href="https://ecf.nysd.uscourts.gov/doc1/127035791113">document</a></p>',
      "text/html; charset=utf-8",
    );
    expect((await parseNoticeEmail(raw)).kind).toBe("unrecognised");
  });

  it("a court's calendar invitation is a hearing, not an ordinary invitation", async () => {
    const raw = message(["From: courtroomdeputy@cand.uscourts.gov", "Subject: Invitation: Case Management Conference @ Mon Oct 21, 2024 10am"], "Zoom hearing");
    expect((await parseNoticeEmail(raw)).kind).toBe("unrecognised");
  });

  it("a claims-register notice is put before a person; a court announcement is ignored with its reason", async () => {
    const claim = message(
      ["From: ecf@deb.uscourts.gov", "Subject: Claim 12 filed"],
      "Notice of Electronic Claims Filing\nThe following transaction was received from Acme Bank on 10/1/2024",
    );
    expect(await parseNoticeEmail(claim)).toEqual({ kind: "unrecognised", reason: "claims register notice" });
    const announcement = message(["From: cmecfhelpdesk@nmd.uscourts.gov", "Subject: Court closed"], "This is an announcement: the court is closed on Monday.");
    expect(await parseNoticeEmail(announcement)).toEqual({ kind: "not_a_notice", reason: "court announcement" });
  });
});

describe("mail from no court is ignored with its reason", () => {
  it("names its senders and link hosts, for the firm's own list of court senders", async () => {
    const raw = message(
      ["From: Clerk <clerk@county.example.gov>", "Subject: Hearing moved"],
      "The hearing is moved; see https://records.county.example.gov/case/123",
    );
    expect(await parseNoticeEmail(raw)).toEqual({
      kind: "not_a_notice",
      reason: "no court notice found",
      origins: ["clerk@county.example.gov", "records.county.example.gov"],
    });
  });

  it("a newsletter from a court without a docket entry or document link", async () => {
    const raw = message(
      ["From: news@uscourts.gov", "Subject: Third Branch News", "List-Unsubscribe: <mailto:leave@uscourts.gov>"],
      "This month in the judiciary.",
    );
    expect(await parseNoticeEmail(raw)).toEqual({ kind: "not_a_notice", reason: "newsletter or mailing-list message" });
  });
});

describe("notices passed on by a person", () => {
  const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, "../../fixtures/notices", name), "latin1");

  it.each([
    ["nef-forwarded-outlook.eml", /^Subject: FW: /m],
    ["nef-forwarded-gmail.eml", /^Subject: Fwd: /m],
  ])("%s is marked forwarded by the line above the notice when its subject says nothing, and keeps the notice's identity", async (name, prefix) => {
    const [withPrefix, without] = await Promise.all([parseNoticeEmail(fixture(name)), parseNoticeEmail(fixture(name).replace(prefix, "Subject: "))]);
    if (withPrefix.kind !== "notice" || without.kind !== "notice") throw new Error(`${name}: not read as a notice`);
    expect(without.quoted?.by).toBe("forward");
    expect(noticeKey(without.notice)).toBe(noticeKey(withPrefix.notice));
    expect(noticeKey(without.notice)).toContain(`|${without.notice.dockets[0]?.docket_number}|`);
  });
});
