// Court mail that is not a docket notice, mail that looks like a notice we could not read, and
// mail that is positively something else. What a person must see and what may be ignored is
// decided here (decision 092); the pipeline only carries it out.
import type { MailContent } from "./mime";
import { hasCourtDocumentLink } from "./court-origin";
import type { TextDoc } from "./text-doc";
import type { ParsedNotice, Quotation } from "./types";

/**
 * Court-side messages that are not docket notices, and whether a person must see each: an edit
 * notice can move a date set by the entry it changes, and a claims-register notice starts the
 * time to object to a claim, so both are put before a person; a court announcement concerns no
 * case and is ignored with its reason.
 */
const NON_NOTICE_MARKERS: readonly (readonly [RegExp, string, boolean])[] = [
  [/Notice of Electronic Claims? Filing/i, "claims register notice", true],
  [/\bthis is an announcement\b|announcement e-?mail message/i, "court announcement", false],
  [
    // "Docket Entry #24 has been updated", "The following transaction was edited by …",
    // "Docket Entry Updated" / "Docket Text Modified" in the subject.
    /docket entry(?:\s{1,3}(?:#|no\.?|number)\s{0,2}\d{1,7})? (?:has been |was )?(?:updated|edited|modified|corrected|changed)\b|docket text (?:has been |was )?(?:updated|edited|modified|corrected)\b|transaction (?:has been|was) (?:edited|modified|updated|corrected)\b|Notice of Docket (?:Entry|Text) (?:Modification|Correction|Update)|\bdocket (?:entry|text) (?:edit|modification|correction)\b/i,
    "docket entry edit notice",
    true,
  ],
];

export interface NonNotice {
  reason: string;
  /** A person must see it (it may change a date); otherwise it is ignored with its reason. */
  personMustSee: boolean;
}

/** Why the message is court mail but not a docket notice, or null. */
export function nonNoticeReason(subject: string | null, text: string): NonNotice | null {
  // Only the part before the docket text counts: a docket text may well talk
  // about corrected entries without the message being an edit notice.
  const docketText = text.search(/Docket Text\s*:/i);
  const head = `${subject ?? ""}\n${text.slice(0, docketText >= 0 ? Math.min(docketText, 4000) : 4000)}`;
  for (const [re, reason, personMustSee] of NON_NOTICE_MARKERS) if (re.test(head)) return { reason, personMustSee };
  return null;
}

const NOTICE_MARKERS =
  /Notice of Electronic Filing|Notice of Docket Activity|Activity in (?:[A-Za-z]{2,8} )?Case\b|Docket Text\s*:|Case Number\s*:|transaction was (?:entered|filed|received)/i;

/** The message carries notice markers (heading, labels or a CM/ECF subject). */
export function hasNoticeMarkers(subject: string | null, text: string): boolean {
  return NOTICE_MARKERS.test(subject ?? "") || NOTICE_MARKERS.test(text.slice(0, 200_000));
}

const AUTO_REPLY_SUBJECT = /^(?:automatic reply|auto(?:matic)?[ -]?(?:reply|response)|out of (?:the )?office|abwesenheitsnotiz|r[ée]ponse automatique)\b/i;

/** Out-of-office and other automatic replies, by their headers or subject; null otherwise. */
export function autoReplyReason(mail: MailContent): string | null {
  const submitted = (mail.headers.get("auto-submitted") ?? "").toLowerCase();
  // Court servers may mark their own mail "auto-generated"; only replies count here.
  if (submitted.startsWith("auto-replied")) return "automatic reply";
  if (mail.headers.has("x-autoreply") || mail.headers.has("x-autorespond") || /^auto[ -]?reply$/i.test(mail.headers.get("x-auto-response-suppress") ?? "")) {
    return "automatic reply";
  }
  if (AUTO_REPLY_SUBJECT.test(stripTags(mail.subject ?? ""))) return "automatic reply";
  return null;
}

/**
 * Newsletters, mailing lists and calendar invitations, by their headers; null otherwise. A
 * newsletter that links to a court document, or an invitation a court sent (a hearing), is not
 * positively something else.
 */
export function ordinaryMailReason(mail: MailContent, docs: readonly TextDoc[], fromCourt: boolean): string | null {
  if (
    !fromCourt &&
    (mail.attachmentTypes.some((t) => t === "text/calendar" || t === "application/ics") ||
      /^(?:invitation|updated invitation|accepted|declined|tentative)(?: \([^)]{0,40}\))?:/i.test(stripTags(mail.subject ?? "")))
  ) {
    return "calendar invitation";
  }
  const precedence = (mail.headers.get("precedence") ?? "").toLowerCase();
  const bulk = mail.headers.has("list-unsubscribe") || mail.headers.has("list-id") || /^(?:bulk|list)\b/.test(precedence);
  if (bulk && !hasCourtDocumentLink(docs)) return "newsletter or mailing-list message";
  return null;
}

/** "[EXTERNAL] RE: …" → "RE: …": tags mail gateways put before the subject. */
function stripTags(subject: string): string {
  return subject.trim().replace(/^(?:\[[^\]]{0,60}\]\s*)+/, "");
}

const REPLY_PREFIX = /^(?:re|aw|sv|antw|vs)\s*(?:\[\d{1,3}\])?\s*:/i;
const FORWARD_PREFIX = /^(?:fw|fwd|wg|tr|rv|vb|doorst)\s*(?:\[\d{1,3}\])?\s*:/i;
// The line a mail program puts above a forwarded or quoted message.
const FORWARD_SEPARATOR =
  /-{2,}\s*(?:Forwarded message|Original Message|Mensaje original|Message d'origine|Urspr\u00fcngliche Nachricht)\s*-{2,}|Begin forwarded message:|^_{10,}$\n^\*?From:|^\*?From:.{1,300}\n^\*?Sent:/im;

/**
 * A notice a person passed on: answered ("RE:", "AW:", "SV:"), forwarded ("FW:", "Fwd:", "WG:", or
 * a forwarded-message line above the notice) or attached to a message of their own; null when the
 * message is the court's own. A quoted notice is linked to the original when the firm has it, and
 * read as the notice it is when not.
 */
export function quotation(mail: MailContent, text: string, attached = false): Quotation | null {
  const subject = stripTags(mail.subject ?? "");
  const by = REPLY_PREFIX.test(subject)
    ? "reply"
    : FORWARD_PREFIX.test(subject) || attached || FORWARD_SEPARATOR.test(text.slice(0, Math.max(0, text.search(NOTICE_MARKERS))))
      ? "forward"
      : null;
  return by ? { by, answers: mail.inReplyTo.slice(0, 20) } : null;
}

/**
 * What tells one docket entry of a notice from every other, to find the original of a quoted
 * notice: court, docket number and the entry's document number, envelope or transaction number,
 * else its document id, free-look number or text.
 */
export function noticeKey(notice: ParsedNotice): string | null {
  const docket = notice.dockets[0];
  const entry = docket?.docket_entries[0];
  if (!docket || !entry) return null;
  const numbered = entry.document_number ?? entry.envelope_number ?? "";
  // The court's document id as well as the entry's number: two documents under one number (an
  // attachment re-filed, a corrected copy) are two notices, and linking one to the other loses it.
  const docId = entry.pacer_doc_id ?? "";
  const other = numbered || docId ? "" : (entry.pacer_magic_num ?? (entry.description ?? "").replace(/\s+/g, " ").slice(0, 200));
  return [notice.court_id ?? "", docket.docket_number, numbered, docId, other].join("|").toLowerCase().slice(0, 400);
}
