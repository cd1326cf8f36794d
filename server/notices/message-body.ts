import { type SenderChain, senderChain } from "./court-origin";
import { type MailContent, readMail } from "./mime";
import { htmlToTextDoc, plainToTextDoc, type TextDoc } from "./text-doc";

/** What people read of a received message: kept when it is parsed, shown by mail, PDF and console. */
export interface MessageBody {
  /** The text body as sent, else the HTML body as text. */
  text: string;
  /** The HTML body, shown only in a sandboxed frame. */
  html: string | null;
  /** The web addresses the body links to, first MAX_WEBLINKS. */
  weblinks: string[];
  /** Who sent it and who it was passed on from (decision 104). */
  senders: SenderChain;
}

const MAX_WEBLINKS = 50;

export const EMPTY_MESSAGE_BODY: MessageBody = { text: "", html: null, weblinks: [], senders: { header: [], original: [] } };

/** The readable body; `htmlDoc` gives the HTML body as a text document when the parse already built it. */
export function messageBodyOf(mail: MailContent, htmlDoc: () => TextDoc = () => htmlToTextDoc(mail.html ?? "")): MessageBody {
  // A message with no body of its own is read in the text or HTML file it carries.
  const attached = mail.html || mail.text ? null : (mail.attachedTexts()[0] ?? null);
  const html = attached ? (attached.html ? attached.text : null) : mail.html;
  const text = attached ? (attached.html ? null : attached.text) : mail.text;
  const doc = html ? (attached ? htmlToTextDoc(html) : htmlDoc()) : plainToTextDoc(text ?? "");
  const weblinks = [...new Set(doc.links.map((l) => l.href).filter((href) => /^https?:\/\//i.test(href)))].slice(0, MAX_WEBLINKS);
  const body = (text ?? doc.text).trim();
  return { text: body, html, weblinks, senders: senderChain(mail, body, attachedSenders(mail)) };
}

/** The senders of the messages a message carries as attachments (a notice forwarded "as attachment"). */
function attachedSenders(mail: MailContent): SenderChain[] {
  return mail.attachedMessages.slice(0, 5).flatMap((raw) => {
    try {
      return senderChain(readMail(raw), "");
    } catch {
      // An attached message whose header cannot be read names no sender.
      return [];
    }
  });
}
