// Court mail that is not a docket notice, and mail that looks like a notice we
// could not read. Both produce no notice; the distinction is for operators
// (an "unrecognised" message may be a new layout worth looking at).
import { courtIdFromHost } from "../courts/federal-courts";
import type { MailContent } from "./mime";

const NON_NOTICE_MARKERS: readonly (readonly [RegExp, string])[] = [
  [/Notice of Electronic Claims? Filing/i, "claims register notice"],
  [/\bthis is an announcement\b|announcement e-?mail message/i, "court announcement"],
  [
    // "Docket Entry #24 has been updated", "The following transaction was edited by …",
    // "Docket Entry Updated" / "Docket Text Modified" in the subject.
    /docket entry(?:\s{1,3}(?:#|no\.?|number)\s{0,2}\d{1,7})? (?:has been |was )?(?:updated|edited|modified|corrected|changed)\b|docket text (?:has been |was )?(?:updated|edited|modified|corrected)\b|transaction (?:has been|was) (?:edited|modified|updated|corrected)\b|Notice of Docket (?:Entry|Text) (?:Modification|Correction|Update)|\bdocket (?:entry|text) (?:edit|modification|correction)\b/i,
    "docket entry edit notice",
  ],
];

/** Reason why the message is court mail but not a docket notice, or null. */
export function nonNoticeReason(subject: string | null, text: string): string | null {
  // Only the part before the docket text counts: a docket text may well talk
  // about corrected entries without the message being an edit notice.
  const docketText = text.search(/Docket Text\s*:/i);
  const head = `${subject ?? ""}\n${text.slice(0, docketText >= 0 ? Math.min(docketText, 4000) : 4000)}`;
  for (const [re, reason] of NON_NOTICE_MARKERS) if (re.test(head)) return reason;
  return null;
}

const NOTICE_MARKERS =
  /Notice of Electronic Filing|Notice of Docket Activity|Activity in (?:[A-Za-z]{2,8} )?Case\b|Docket Text\s*:|Case Number\s*:|transaction was (?:entered|filed|received)/i;

/** The message carries notice markers (heading, labels or a CM/ECF subject). */
export function hasNoticeMarkers(subject: string | null, text: string): boolean {
  return NOTICE_MARKERS.test(subject ?? "") || NOTICE_MARKERS.test(text.slice(0, 200_000));
}

/** Sent by a court (sender domain or Message-ID host is a court's). */
export function isCourtMail(mail: MailContent): boolean {
  return [mail.messageId ?? "", ...mail.senderAddresses].some((v) => !!v && courtIdFromHost(v.replace(/^.*@/, "")) !== undefined);
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

/** Newsletters, mailing lists and calendar invitations, by their headers; null otherwise. */
export function ordinaryMailReason(mail: MailContent): string | null {
  if (
    mail.attachmentTypes.some((t) => t === "text/calendar" || t === "application/ics") ||
    /^(?:invitation|updated invitation|accepted|declined|tentative)(?: \([^)]{0,40}\))?:/i.test(stripTags(mail.subject ?? ""))
  ) {
    return "calendar invitation";
  }
  const precedence = (mail.headers.get("precedence") ?? "").toLowerCase();
  if (mail.headers.has("list-unsubscribe") || mail.headers.has("list-id") || /^(?:bulk|list)\b/.test(precedence)) return "newsletter or mailing-list message";
  return null;
}

/** "[EXTERNAL] RE: …" → "RE: …": tags mail gateways put before the subject. */
function stripTags(subject: string): string {
  return subject.trim().replace(/^(?:\[[^\]]{0,60}\]\s*)+/, "");
}

/**
 * A person's answer to a notice: the outermost subject prefix says reply
 * ("RE:", "AW:", "SV:", "Antw:"). Forwards ("FW:", "Fwd:") are notices passed
 * on and are read as notices.
 */
export function isReply(mail: MailContent): boolean {
  return /^(?:re|aw|sv|antw|vs)\s*(?:\[\d{1,3}\])?\s*:/i.test(stripTags(mail.subject ?? ""));
}
