// "Notice has been electronically mailed to:" lists. Layouts seen:
//
//   Cecily L. Kaffer    clk@example.test, ddn@example.test      (district, one line)
//   Adam C. Jed                                                  (plain text: name line,
//      acj@example.test                                           then address line)
//   Jane Roe on behalf of Debtor Acme LLC                        (bankruptcy personName span,
//   jroe@example.test, office@example.test                        then address lines)
//   Recipient Name, Deputy Clerk: a@example.test, b@example.test (appellate; role after the comma)
//   User Name ; user@example.test                                (ACMS)
//
// Names printed without any address are dropped: nothing was e-mailed to them.
import { MAX_RECIPIENTS } from "./limits";
import type { SectionHeading } from "./labels";
import type { EmailRecipient } from "./types";
import { collapse, findEmails } from "./text-utils";

// Appellate lists put the participant's role after the name ("Name, -:",
// "Name, Deputy Clerk:"). Only these role words are cut, so that a name
// suffix such as ", Jr" survives.
const ROLE_SUFFIX =
  /,\s*(?:-|(?:[A-Za-z.]+\s+){0,3}(?:Clerk|Manager|Deputy|Administrator|Specialist|Supervisor|Assistant|Secretary|Paralegal|Mediator|Officer|Staff|Attorney|Counsel|Judge|Librarian|Analyst|Technician|Director))\s*$/i;

function cleanName(raw: string): string {
  let name = collapse(raw)
    .replace(/\s+,/g, "")
    .replace(/[\s:;,|]+$/, "")
    .replace(/^[\s:;,|\-]+/, "");
  const behalf = name.search(/\s+on behalf of\s/i);
  if (behalf > 0) name = name.slice(0, behalf);
  name = name.replace(ROLE_SUFFIX, "").replace(/[\s:;,]+$/, "");
  return name.trim();
}

/** Parse one recipient section (the text between its heading and the next heading). */
export function parseRecipientLines(section: string): EmailRecipient[] {
  const out: EmailRecipient[] = [];
  let pending: string | null = null;
  let current: EmailRecipient | null = null;
  for (const rawLine of section.split("\n")) {
    const line = rawLine.slice(0, 20_000);
    const emails = findEmails(line);
    if (emails.length === 0) {
      pending = /[A-Za-z]/.test(line) ? line : pending;
      continue;
    }
    const before = line.slice(0, emails[0]?.start ?? 0);
    const inlineName = cleanName(before);
    const addresses = emails.map((e) => e.email);
    // "a@x.test<mailto:a@x.test>" (Outlook plain text) lists an address twice.
    const fresh = (list: string[]) => list.filter((a, i) => list.findIndex((b) => b.toLowerCase() === a.toLowerCase()) === i);
    if (inlineName && /[A-Za-z0-9]/.test(inlineName)) {
      current = { name: inlineName, email_addresses: fresh(addresses) };
      out.push(current);
    } else if (pending !== null) {
      current = { name: cleanName(pending), email_addresses: fresh(addresses) };
      out.push(current);
    } else if (current) {
      current.email_addresses = fresh([...current.email_addresses, ...addresses]);
    } else {
      current = { name: "", email_addresses: fresh(addresses) };
      out.push(current);
    }
    pending = null;
    if (out.length >= MAX_RECIPIENTS) break;
  }
  return out;
}

const ELECTRONIC = /Notice (?:has been|will be|was) electronically mailed to/i;

/**
 * Recipients of every "electronically mailed to" section of a notice (one per
 * docket in multi-docket notices), merged when the same person appears twice.
 */
export function parseRecipients(text: string, headings: readonly SectionHeading[], stopAt: (from: number) => number): EmailRecipient[] {
  const all: EmailRecipient[] = [];
  headings.forEach((heading, i) => {
    if (!ELECTRONIC.test(heading.line)) return;
    const afterColon = heading.line.indexOf(":", heading.line.search(ELECTRONIC));
    const start = afterColon >= 0 ? heading.start + afterColon + 1 : heading.end;
    const nextHeading = headings[i + 1]?.start ?? text.length;
    const end = Math.min(nextHeading, stopAt(start));
    all.push(...parseRecipientLines(text.slice(start, end)));
  });
  const seen = new Map<string, EmailRecipient>();
  for (const r of all) {
    const key = `${r.name.toLowerCase()}\u0000${[...r.email_addresses].map((a) => a.toLowerCase()).sort().join(",")}`;
    if (!seen.has(key)) seen.set(key, r);
    if (seen.size >= MAX_RECIPIENTS) break;
  }
  return [...seen.values()];
}
