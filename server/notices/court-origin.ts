// Who counts as a court or an e-filing provider when mail is sorted (decision 092). Mail from
// one of them, or linking to one of them, is never ignored unless it is positively something
// else (an automatic reply, a newsletter without a docket entry or document link): when no
// parser reads it, a person is asked. Sources of the host names: the judiciary's and the
// providers' own help pages (PACER/CM/ECF e-mail FAQs, ACMS instructions, Tyler's Odyssey
// eFile & Serve help centre and state guides asking filers to allow @tylerhost.net,
// efilingmail@tylerhost.net and tylertech.com, File & ServeXpress's user guides).
import { courtIdFromHost } from "../jurisdictions/federal-courts";
import type { MailContent } from "./mime";
import type { TextDoc } from "./text-doc";

/** Domains of courts and e-filing providers; each covers its sub-domains. */
export const COURT_MAIL_DOMAINS: readonly string[] = [
  // Federal judiciary: CM/ECF, PACER, NextGen, the appellate ACMS mail (ACMS@caN.fedcourts.us).
  "uscourts.gov",
  "fedcourts.us",
  "pacer.gov",
  // Supreme Court: the site and its e-filing system's mail (no-reply@sc-us.gov).
  "supremecourt.gov",
  "sc-us.gov",
  // Tyler Technologies' Odyssey eFile & Serve and the state portals it runs.
  "tylerhost.net",
  "tylertech.cloud",
  "tylertech.com",
  "efiletexas.gov",
  "efileil.com",
  "efilega.com",
  "efilemn.com",
  "efilema.com",
  // File & ServeXpress.
  "fileandservexpress.com",
];

// Labels that mark a government host as a court's: "txcourts.gov", "courts.in.gov", "jud.ct.gov",
// "ustaxcourt.gov", "judiciary.state.nj.us". Only .gov and .us hosts, whose names are not for anyone to take.
const COURT_LABEL = /^(?:[a-z0-9-]*courts?[a-z0-9-]*|jud|judicial|judiciary|[a-z0-9-]*judiciary)$/;

/** "Clerk <ECF@txed.uscourts.gov>", "https://ecf.txed.uscourts.gov/doc1/…", "txed.uscourts.gov." → "txed.uscourts.gov". */
export function hostOf(value: string): string {
  let host = value.trim().toLowerCase().slice(0, 512);
  const scheme = host.indexOf("://");
  if (scheme >= 0) host = host.slice(scheme + 3);
  host = host.replace(/^mailto:/, "").split(/[/?#]/, 1)[0] ?? "";
  host = host.slice(host.lastIndexOf("@") + 1);
  return host
    .replace(/[>\s]+$/, "")
    .replace(/:\d{1,5}$/, "")
    .replace(/\.$/, "");
}

/** The host is the domain or one of its sub-domains. */
export function withinDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** The domain of the registry a host belongs to, or the host itself when it is a court's by its name; null otherwise. */
export function courtHost(value: string): string | null {
  const host = hostOf(value);
  if (!host) return null;
  const listed = COURT_MAIL_DOMAINS.find((d) => withinDomain(host, d));
  if (listed) return listed;
  // ACMS document gateways (caN-showdoc.azurewebsites.us) and other hosts the court registry knows.
  if (courtIdFromHost(host) !== undefined) return host;
  const labels = host.split(".");
  const tld = labels[labels.length - 1];
  if ((tld === "gov" || tld === "us") && labels.slice(0, -1).some((l) => COURT_LABEL.test(l))) return host;
  return null;
}

// Header fields that name who sent or passed on a message, beside From, Sender, Reply-To,
// Return-Path and X-Original-Sender (MailContent.senderAddresses).
const FORWARDING_HEADERS = ["resent-from", "resent-sender", "x-original-from", "x-forwarded-for", "x-original-return-path"];
// "From: ECF <ecf@txed.uscourts.gov>" lines of a quoted or forwarded message ("> From:", "*From:*", "De :", "Von:").
const QUOTED_FROM = /^[ \t>*]{0,20}(?:from|sender|reply-to|de|von|van)[ \t]{0,3}\*?:[^\n]{0,300}/gim;
const ADDRESS = /[a-z0-9._%+-]{1,64}@[a-z0-9.-]{1,253}\.[a-z]{2,24}/gi;
const MAX_ORIGINS = 200;

/**
 * Where a message comes from and what it links to: sender addresses (the headers, the forwarding
 * chain, the "From:" lines of quoted messages), the Message-ID's host and the hosts of its links.
 */
export function mailOrigins(mail: MailContent, docs: readonly TextDoc[]): string[] {
  const origins = new Set<string>(mail.senderAddresses);
  for (const a of forwardingAddresses(mail)) origins.add(a);
  if (mail.messageId?.includes("@")) origins.add(hostOf(mail.messageId));
  for (const doc of docs) {
    for (const a of quotedFromAddresses(doc.text)) origins.add(a);
    for (const link of doc.links) {
      if (origins.size >= MAX_ORIGINS) break;
      if (/^https?:/i.test(link.href)) origins.add(hostOf(link.href));
    }
  }
  return [...origins].filter(Boolean).slice(0, MAX_ORIGINS);
}

function headerAddresses(mail: MailContent, names: readonly string[]): string[] {
  return names.flatMap((name) => (mail.headers.get(name) ?? "").slice(0, 2000).match(ADDRESS) ?? []).map((a) => a.toLowerCase());
}

/** The addresses of the forwarding headers (Resent-From, X-Forwarded-For, …). */
function forwardingAddresses(mail: MailContent): string[] {
  return headerAddresses(mail, FORWARDING_HEADERS);
}

/** The addresses of the "From:" lines of the messages a text quotes or forwards, in their order. */
function quotedFromAddresses(text: string): string[] {
  return (text.slice(0, 200_000).match(QUOTED_FROM) ?? []).flatMap((line) => line.match(ADDRESS) ?? []).map((a) => a.toLowerCase());
}

const MAX_SENDERS = 30;

/** Who sent a message and who it was passed on from (decision 104); the envelope sender is not part of it. */
export interface SenderChain {
  /** The header senders and the mailboxes that passed it on: From, Sender, Resent-From, Resent-Sender, X-Forwarded-For. */
  header: string[];
  /**
   * Who wrote what it forwards or quotes, outermost first: X-Original-From, -Sender and
   * -Return-Path, the "From:" lines of the messages its body quotes or forwards, the senders of
   * the messages it carries as attachments.
   */
  original: string[];
}

const unique = (addresses: readonly string[]) => [...new Set(addresses)].slice(0, MAX_SENDERS);

export function senderChain(mail: MailContent, bodyText: string, attached: readonly SenderChain[] = []): SenderChain {
  return {
    header: unique(headerAddresses(mail, ["from", "sender", "resent-from", "resent-sender", "x-forwarded-for"])),
    original: unique([
      ...headerAddresses(mail, ["x-original-from", "x-original-sender", "x-original-return-path"]),
      ...quotedFromAddresses(bodyText),
      ...attached.flatMap((chain) => [...chain.header, ...chain.original]),
    ]),
  };
}

/**
 * The address a firm's sender domain rules judge (decision 104): court mail is judged by the court
 * or provider it comes from, wherever the chain or the envelope names it (a firm that forwards
 * court mail from its own mailbox is judged on the court's address); else by the original sender
 * of what it forwards (the innermost); else by its From header; the envelope sender only when the
 * message names no sender at all.
 */
export function ruleSender(chain: SenderChain, firmListed: readonly string[], envelope: string): string {
  const named = [...chain.header, ...chain.original, ...(envelope ? [envelope.toLowerCase()] : [])];
  const court = named.find((address) => courtHost(address) !== null) ?? firmListedOrigin(named, firmListed);
  return court ?? chain.original[chain.original.length - 1] ?? chain.header[0] ?? envelope.toLowerCase();
}

/** The first origin that is a court's or a provider's (its registry domain), or null. */
export function courtOrigin(origins: readonly string[]): string | null {
  for (const origin of origins) {
    const host = courtHost(origin);
    if (host) return host;
  }
  return null;
}

// A link to a court document or a docket: CM/ECF's /doc1/ and /cgi-bin/, ACMS's showdoc,
// the Supreme Court's docket files, a provider's document download.
const DOCUMENT_PATH = /\/docs?1\/|\/cgi-bin\/|showdoc|\/docketfiles\/|\/docket\/|download|viewdocument|getdocument/i;

/** The message links to a court document or docket on a court's or provider's host. */
export function hasCourtDocumentLink(docs: readonly TextDoc[]): boolean {
  return docs.some((doc) => doc.links.some((l) => DOCUMENT_PATH.test(l.href) && /^https?:/i.test(l.href) && courtHost(l.href) !== null));
}

/**
 * A firm's own list of court senders: an address matches itself, a domain matches itself and its
 * sub-domains. The first origin the list names, or null.
 */
export function firmListedOrigin(origins: readonly string[], listed: readonly string[]): string | null {
  if (listed.length === 0) return null;
  for (const origin of origins) {
    const value = origin.toLowerCase();
    const host = hostOf(value);
    if (listed.some((entry) => (entry.includes("@") ? entry === value : withinDomain(host, entry)))) return origin;
  }
  return null;
}
