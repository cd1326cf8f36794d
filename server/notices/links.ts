import { boundedCache } from "../../app/common/bounded-cache";

// CM/ECF and ACMS links found in notices.
//
//   https://ecf.alsd.uscourts.gov/doc1/02113212100?caseid=67619&de_seq_num=99&magic_num=95052604
//   https://ecf.ca2.uscourts.gov/docs1/00208883934?uid=4a800555f691be89
//   https://ecf.alsd.uscourts.gov/cgi-bin/DktRpt.pl?67619
//   https://ecf.ca11.uscourts.gov/n/beam/servlet/TransportRoom?servlet=DocketReportFilter.jsp&caseId=78099
//   https://ca9-showdoc.azurewebsites.us/NDA/e663b724-b14c-f011-877a-001dd806079d
//
// Mail security gateways rewrite links in forwarded notices; Outlook Safe
// Links and Proofpoint URL Defense v2/v3 are unwrapped so that the original
// link (and its query parameters) can be read.

export type CourtLinkKind = "document" | "docket" | "acms_document" | "acms_case" | "other";

export interface CourtLink {
  kind: CourtLinkKind;
  /** The URL as it appears in the notice (after unwrapping a security gateway). */
  url: string;
  host: string | null;
  /** Document id as in the link (documents only). */
  doc_id: string | null;
  /** Document id with the 4th digit forced to 0 (documents only). */
  pacer_doc_id: string | null;
  pacer_case_id: string | null;
  pacer_seq_no: string | null;
  /** magic_num (NEF), uid (NDA) or the ACMS document GUID; null for the "MAGIC" placeholder. */
  pacer_magic_num: string | null;
}

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * The 4th digit of a PACER document id says whether the link shows the
 * document (1) or its attachment menu (0); it is forced to 0 so that the same
 * document always has the same id.
 */
export function normalisePacerDocId(docId: string | null | undefined): string | null {
  if (!docId) return null;
  if (docId.length < 4 || !/\d/.test(docId[3] ?? "")) return docId;
  return `${docId.slice(0, 3)}0${docId.slice(4)}`;
}

function safeUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Original URL behind Safe Links / URL Defense rewrites; the input otherwise. */
export function unwrapGatewayUrl(raw: string): string {
  const url = raw.trim();
  if (url.length > 8192) return url;
  const lower = url.toLowerCase();
  if (lower.includes("safelinks.protection.outlook.com")) {
    const parsed = safeUrl(url);
    const inner = parsed?.searchParams.get("url");
    if (inner) return inner;
  }
  if (lower.includes("urldefense.com/v3/__")) {
    const start = url.indexOf("/v3/__") + 6;
    const end = url.indexOf("__;", start);
    if (end > start) return url.slice(start, end);
  }
  if (lower.includes("urldefense.proofpoint.com/v2/url")) {
    const parsed = safeUrl(url);
    const inner = parsed?.searchParams.get("u");
    if (inner) return decodeSafe(inner.replace(/-/g, "%").replace(/_/g, "/"));
  }
  return url;
}

function param(params: URLSearchParams, ...names: string[]): string | null {
  for (const name of names) {
    const direct = params.get(name);
    if (direct !== null && direct !== "") return direct;
  }
  const wanted = new Set(names.map((n) => n.toLowerCase()));
  for (const [key, value] of params) if (wanted.has(key.toLowerCase()) && value) return value;
  return null;
}

function magic(value: string | null): string | null {
  if (!value) return null;
  const v = value.trim();
  return v && v.toUpperCase() !== "MAGIC" ? v : null;
}

// Notices are parsed one link at a time by several steps; results are kept (parsing is pure).
const cache = boundedCache<CourtLink>({ max: 2000 });

/** Classify and take apart one link; never throws. */
export function parseCourtLink(raw: string): CourtLink {
  return cache.keep(raw, () => parseLink(raw));
}

function parseLink(raw: string): CourtLink {
  const url = unwrapGatewayUrl(raw);
  const parsed = safeUrl(url);
  const base: CourtLink = {
    kind: "other",
    url,
    host: parsed ? parsed.hostname.toLowerCase() : null,
    doc_id: null,
    pacer_doc_id: null,
    pacer_case_id: null,
    pacer_seq_no: null,
    pacer_magic_num: null,
  };
  if (!parsed) return base;
  const path = parsed.pathname;
  const params = parsed.searchParams;

  const doc = /\/docs?1\/(\d+)/i.exec(path);
  if (doc?.[1]) {
    return {
      ...base,
      kind: "document",
      doc_id: doc[1],
      pacer_doc_id: normalisePacerDocId(doc[1]),
      pacer_case_id: param(params, "caseid", "caseId"),
      pacer_seq_no: param(params, "de_seq_num"),
      pacer_magic_num: magic(param(params, "magic_num", "uid")),
    };
  }
  if ((base.host ?? "").includes("showdoc")) {
    const guid = /\/NDA\/([^/?#]+)/i.exec(path);
    if (guid?.[1]) return { ...base, kind: "acms_document", pacer_magic_num: GUID.exec(guid[1])?.[0] ?? guid[1] };
    return { ...base, kind: "acms_case" };
  }
  const dktRpt = /\/cgi-bin\/(?:DktRpt|HistDocQry|iquery|qryParties|qrySummary)\.pl$/i.exec(path);
  if (dktRpt) {
    const caseId = /^\??(\d+)/.exec(parsed.search)?.[1] ?? param(params, "caseid", "caseId");
    return { ...base, kind: "docket", pacer_case_id: caseId };
  }
  const caseId = param(params, "caseId", "caseid", "CaseId");
  if (caseId && /TransportRoom|DocketReport|beam/i.test(url)) return { ...base, kind: "docket", pacer_case_id: caseId };
  return base;
}
