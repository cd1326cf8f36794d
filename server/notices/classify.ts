// Court mail that is not a docket notice, and mail that looks like a notice we
// could not read. Both produce no notice; the distinction is for operators
// (an "unrecognised" message may be a new layout worth looking at).
import { courtIdFromHost } from "../courts/federal-courts";
import type { MailContent } from "./mime";

const NON_NOTICE_MARKERS: readonly (readonly [RegExp, string])[] = [
  [/Notice of Electronic Claims? Filing/i, "claims register notice"],
  [/\bthis is an announcement\b|announcement e-?mail message/i, "court announcement"],
  [/docket entry (?:has been|was) (?:updated|edited|modified|corrected|changed)|docket text (?:has been|was) (?:updated|edited|modified)|Notice of Docket (?:Entry|Text) (?:Modification|Correction|Update)/i, "docket entry edit notice"],
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
