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
import { collapse, findEmails, trimChars } from "./text-utils";

// Appellate lists put the participant's role after the name ("Name, -:",
// "Name, Deputy Clerk:"). Only these role words are cut, so that a name
// suffix such as ", Jr" survives.
const ROLE_TAIL =
  /^\s?(?:-|(?:[A-Za-z.]{1,20}\s){0,3}(?:Clerk|Manager|Deputy|Administrator|Specialist|Supervisor|Assistant|Secretary|Paralegal|Mediator|Officer|Staff|Attorney|Counsel|Judge|Librarian|Analyst|Technician|Director))$/i;

function cleanName(raw: string): string {
  let name = collapse(raw.slice(0, 2000)).replace(/ ,/g, "");
  name = trimChars(trimChars(name, " :;,|", "end"), " :;,|-", "start");
  const behalf = name.search(/ on behalf of /i);
  if (behalf > 0) name = name.slice(0, behalf);
  const comma = name.lastIndexOf(",");
  if (comma >= 0 && name.length - comma <= 60 && ROLE_TAIL.test(name.slice(comma + 1))) name = name.slice(0, comma);
  return trimChars(name, " :;,");
}

/** Remove repeated addresses ("a@x.test<mailto:a@x.test>" in Outlook plain text), keeping the first spelling. */
function unique(addresses: readonly string[]): string[] {
  const seen = new Set<string>();
  return addresses.filter((a) => {
    const key = a.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
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
    if (inlineName && /[A-Za-z0-9]/.test(inlineName)) {
      current = { name: inlineName, email_addresses: unique(addresses) };
      out.push(current);
    } else if (pending !== null) {
      current = { name: cleanName(pending), email_addresses: unique(addresses) };
      out.push(current);
    } else if (current) {
      current.email_addresses = unique([...current.email_addresses, ...addresses]);
    } else {
      current = { name: "", email_addresses: unique(addresses) };
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
    const key = `${r.name.toLowerCase()}\u0000${[...r.email_addresses]
      .map((a) => a.toLowerCase())
      .sort()
      .join(",")}`;
    if (!seen.has(key)) seen.set(key, r);
    if (seen.size >= MAX_RECIPIENTS) break;
  }
  return [...seen.values()];
}
