import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { CSO_AUTH_PATH, CSO_LOGOUT_PATH, NEXT_GEN_CSO_COOKIE } from "./pacer-auth";
import { DOCKET_FEED_PATH } from "./connector";
import { courtIdFromHost } from "../jurisdictions/federal-courts";

// A local stand-in for the courts' CM/ECF servers, speaking the part of their behaviour the
// connector relies on: a free-look link returns the PDF; a restricted one the PACER sign-in page;
// busy servers answer slowly or fail. Tests and the demo point ECFX_COURT_BASE_URL at it. The
// Supreme Court's public documents (/opinions/…, /DocketPDF/…) are served the same way.
//
// Behaviour by the last digits of the document id in the link:
//   …999  sign-in page; the document to a valid NextGenCSO cookie (with got_receipt=1, else the
//         receipt page)
//   …998  sign-in page; signed in, "You do not have permission" (sealed: never served)
//   …500  always 500
//   …503  503 on the first request       …777  answers after 1.5 s
//   …301  redirects to the same document id ending in 000 on the same host
//   …302  redirects to the same path on another host name of this server
//
// PACER's Authentication API is spoken on the same server (tests and the demo point
// ECFX_PACER_AUTH_URL at it): POST /services/cso-auth with JSON {loginId, password, clientCode?,
// redactFlag?} signs in the known test account (PACER_TEST_ACCOUNT; another password is refused
// with loginResult "13"), POST /services/cso-logout ends a token. A request off that contract
// is answered 400 and recorded (contractViolations).
//
// The docket feed (/cgi-bin/rss_outside.pl) of the court named in X-Forwarded-Host is served as
// CM/ECF writes it: entries published with publishEntry, newest first, or a feed given verbatim
// with setFeed; a court without either has an empty feed, and failFeed makes it answer 500.
//
// A document carries the court's stamp (the header line CM/ECF prints on every page: "Document
// <n> Filed <date>"), unless the simulator is told to serve a document unstamped its first times
// (serveUnstamped), as a court does before its clerk has stamped the filing.

/** A one-page PDF with a line of text: small, valid, different per document. */
export function simplePdf(text: string): Buffer {
  const safe = text.replace(/[()\\]/g, "");
  const stream = `BT /F1 12 Tf 72 720 Td (${safe}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** The court's copy of a document: stamped with its header line, or not yet. */
export function courtPdf(id: string, stamped: boolean): Buffer {
  return simplePdf(stamped ? `Document ${id} Filed 01/02/26 Court document ${id}` : `Court document ${id}`);
}

const LOGIN_PAGE = `<!doctype html><html><head><title>PACER Login</title></head><body>
<form method="post" action="/cgi-bin/login.pl"><input name="login"><input type="password" name="key"></form></body></html>`;

/** A docket entry as the simulated court publishes it in its feed. */
export interface PublishedEntry {
  docketNumber: string;
  caseName: string;
  shortDescription: string;
  documentNumber: string;
  /** The document id of the free-look link (its 4th digit 1): "127122264358". */
  documentId: string;
  pacerCaseId: string;
  sequence: string;
  publishedAt: number;
}

const xmlText = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A court's "recent entries" feed in CM/ECF's layout (see tests/fixtures/pacer-rss). */
export function docketFeedXml(courtId: string, entries: readonly PublishedEntry[]): string {
  const origin = `https://ecf.${courtId}.uscourts.gov`;
  const items = entries.map((e) => {
    const link = `${origin}/doc1/${e.documentId}?caseid=${e.pacerCaseId}&de_seq_num=${e.sequence}`;
    return `<item>
<title>${xmlText(`${e.docketNumber} ${e.caseName}`)}</title>
<link>${origin}/cgi-bin/DktRpt.pl?${e.pacerCaseId}</link>
<description>${xmlText(`[${e.shortDescription}] (<a href="${link}" >${e.documentNumber}</a>)`)}</description>
<guid isPermaLink="true">${xmlText(`${origin}/cgi-bin/DktRpt.pl?${e.pacerCaseId}&${e.sequence}`)}</guid>
<pubDate>${new Date(e.publishedAt).toUTCString()}</pubDate>
</item>`;
  });
  return `<?xml version="1.0" encoding="ISO-8859-1"?>
<rss version="2.0">
<channel>
<title>${xmlText(courtId)} - Recent Entries</title>
<link>${origin}</link>
<description>Docket entries of type: all</description>
${items.join("\n")}
</channel>
</rss>
`;
}

/** The PACER account the simulator signs in; any other password is refused. */
export const PACER_TEST_ACCOUNT = { loginId: "ecfxtest", password: "Pacer-Test-Passw0rd" } as const;
/** What PACER answers a wrong login id or password. */
export const PACER_REFUSAL = "Invalid username, password, or one-time passcode.";

const RECEIPT_PAGE = `<!doctype html><html><head><title>Transaction Receipt</title></head><body>
<table><tr><td>PACER Service Center</td></tr><tr><td>Transaction Receipt</td></tr><tr><td>Cost: 0.30</td></tr></table>
<form method="post"><input type="submit" value="View Document"></form></body></html>`;
const SEALED_PAGE = `<!doctype html><html><head><title>Document Selection</title></head><body>
<p>You do not have permission to view this document.</p></body></html>`;

export interface CourtSimulator {
  url: string;
  /** Successful PACER sign-ins so far, and refused ones. */
  pacerSignIns(): { signedIn: number; refused: number };
  /** Documents served to a signed-in request (what the firm's account is charged for). */
  pacerCharged(): number;
  /** Every live NextGenCSO token ends, as PACER's sessions do after their time. */
  endPacerSessions(): void;
  /** cso-auth answers this status (and no JSON) while set; null answers again. */
  failPacerAuth(status: number | null): void;
  /** Requests to PACER's Authentication API that did not follow its contract. */
  contractViolations(): string[];
  /** Adds an entry to the top of a court's feed. */
  publishEntry(courtId: string, entry: PublishedEntry): void;
  /** Serves this feed for the court as it is (a court's real feed of the test fixtures). */
  setFeed(courtId: string, xml: string): void;
  /** The court's feed answers 500 while on. */
  failFeed(courtId: string, failing: boolean): void;
  /** How often each path was requested. */
  requests: Map<string, number>;
  /** Serves the document with this id unstamped for its next `times` requests. */
  serveUnstamped(documentId: string, times: number): void;
  close(): Promise<void>;
}

export async function startCourtSimulator(port = 0, host = "127.0.0.1"): Promise<CourtSimulator> {
  const requests = new Map<string, number>();
  const unstamped = new Map<string, number>();
  const published = new Map<string, PublishedEntry[]>();
  const givenFeeds = new Map<string, string>();
  const failingFeeds = new Set<string>();
  const pacerTokens = new Set<string>();
  const violations: string[] = [];
  const signIns = { signedIn: 0, refused: 0 };
  let charged = 0;
  let pacerFailure: number | null = null;
  const violation = (res: http.ServerResponse, what: string) => {
    violations.push(what);
    res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ loginResult: "1", errorDescription: what }));
  };
  const readJson = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<Record<string, unknown> | null> => {
    if (req.method !== "POST") return (violation(res, `${req.method} ${req.url}: PACER's Authentication API takes POST`), null);
    if (!/^application\/json\b/i.test(String(req.headers["content-type"] ?? "")))
      return (violation(res, `${req.url}: Content-Type is not application/json`), null);
    if (!/application\/json/i.test(String(req.headers.accept ?? ""))) return (violation(res, `${req.url}: Accept does not ask for application/json`), null);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
      if (body && typeof body === "object" && !Array.isArray(body)) return body as Record<string, unknown>;
    } catch {
      // answered below
    }
    return (violation(res, `${req.url}: the body is no JSON object`), null);
  };
  const csoAuth = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = await readJson(req, res);
    if (!body) return;
    const known = new Set(["loginId", "password", "clientCode", "redactFlag", "otpCode"]);
    const unknown = Object.keys(body).filter((k) => !known.has(k));
    if (unknown.length) return violation(res, `cso-auth: unknown fields ${unknown.join(", ")}`);
    if (typeof body.loginId !== "string" || typeof body.password !== "string") return violation(res, "cso-auth: loginId and password must be strings");
    if (body.redactFlag !== undefined && body.redactFlag !== "1") return violation(res, 'cso-auth: redactFlag is "1" when sent');
    if (body.clientCode !== undefined && typeof body.clientCode !== "string") return violation(res, "cso-auth: clientCode must be a string");
    if (pacerFailure !== null) return res.writeHead(pacerFailure, { "content-type": "text/plain" }).end("Service unavailable");
    res.writeHead(200, { "content-type": "application/json" });
    if (body.loginId !== PACER_TEST_ACCOUNT.loginId || body.password !== PACER_TEST_ACCOUNT.password) {
      signIns.refused++;
      return res.end(JSON.stringify({ loginResult: "13", errorDescription: PACER_REFUSAL }));
    }
    signIns.signedIn++;
    const token = randomBytes(64).toString("hex");
    pacerTokens.add(token);
    res.end(JSON.stringify({ nextGenCSO: token, loginResult: "0", errorDescription: "" }));
  };
  const csoLogout = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = await readJson(req, res);
    if (!body) return;
    if (typeof body.nextGenCSO !== "string") return violation(res, "cso-logout: nextGenCSO must be a string");
    pacerTokens.delete(body.nextGenCSO);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ loginResult: "0", errorDescription: "" }));
  };
  /** Whether the request carries a NextGenCSO cookie PACER issued and has not ended. */
  const signedIn = (req: http.IncomingMessage) => {
    const cookies = String(req.headers.cookie ?? "")
      .split(";")
      .map((c) => c.trim().split("="));
    return cookies.some(([name, value]) => name === NEXT_GEN_CSO_COOKIE && value !== undefined && pacerTokens.has(value));
  };
  const serveFeed = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const court = courtIdFromHost(String(req.headers["x-forwarded-host"] ?? "")) ?? "";
    if (failingFeeds.has(court)) return res.writeHead(500, { "content-type": "text/plain" }).end("Server busy");
    const xml = givenFeeds.get(court) ?? docketFeedXml(court, published.get(court) ?? []);
    res.writeHead(200, { "content-type": "application/rss+xml; charset=ISO-8859-1" }).end(Buffer.from(xml, "latin1"));
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://simulator");
    const count = (requests.get(url.pathname) ?? 0) + 1;
    requests.set(url.pathname, count);
    if (url.pathname === DOCKET_FEED_PATH) return serveFeed(req, res);
    if (url.pathname === CSO_AUTH_PATH) return void csoAuth(req, res);
    if (url.pathname === CSO_LOGOUT_PATH) return void csoLogout(req, res);
    const id = url.pathname.split("/").filter(Boolean).pop() ?? "";
    const respond = () => {
      if (!/^\/(doc1|docs1|NDA|cgi-bin|opinions|DocketPDF)\b/.test(url.pathname)) {
        res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      } else if (id.endsWith("301")) {
        res.writeHead(301, { location: url.pathname.replace(/301$/, "000") }).end();
      } else if (id.endsWith("302")) {
        const other = host === "127.0.0.1" ? "localhost" : "127.0.0.1";
        res.writeHead(302, { location: `http://${other}:${(server.address() as AddressInfo).port}${url.pathname}` }).end();
      } else if ((id.endsWith("999") || id.endsWith("998")) && !signedIn(req)) {
        res.writeHead(200, { "content-type": "text/html" }).end(LOGIN_PAGE);
      } else if (id.endsWith("998")) {
        res.writeHead(200, { "content-type": "text/html" }).end(SEALED_PAGE);
      } else if (id.endsWith("999") && url.searchParams.get("got_receipt") !== "1") {
        res.writeHead(200, { "content-type": "text/html" }).end(RECEIPT_PAGE);
      } else if (id.endsWith("500") || (id.endsWith("503") && count === 1)) {
        res.writeHead(id.endsWith("500") ? 500 : 503, { "content-type": "text/plain" }).end("Server busy");
      } else {
        const left = unstamped.get(id) ?? 0;
        if (left > 0) unstamped.set(id, left - 1);
        const pdf = courtPdf(id, left === 0);
        if (id.endsWith("999")) charged++;
        res.writeHead(200, { "content-type": "application/pdf", "content-length": pdf.length }).end(pdf);
      }
    };
    if (id.endsWith("777")) setTimeout(respond, 1500);
    else respond();
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    requests,
    pacerSignIns: () => ({ ...signIns }),
    pacerCharged: () => charged,
    endPacerSessions: () => pacerTokens.clear(),
    failPacerAuth: (status) => (pacerFailure = status),
    contractViolations: () => [...violations],
    publishEntry: (courtId, entry) => published.set(courtId, [entry, ...(published.get(courtId) ?? [])]),
    setFeed: (courtId, xml) => givenFeeds.set(courtId, xml),
    failFeed: (courtId, failing) => (failing ? failingFeeds.add(courtId) : failingFeeds.delete(courtId)),
    serveUnstamped: (documentId, times) => unstamped.set(documentId, times),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
