import http from "node:http";
import type { AddressInfo } from "node:net";
import { DOCKET_FEED_PATH } from "./connector";
import { courtIdFromHost } from "./federal-courts";

// A local stand-in for the courts' CM/ECF servers, speaking the part of their behaviour the
// connector relies on: a free-look link returns the PDF; a restricted one the PACER sign-in page;
// busy servers answer slowly or fail. Tests and the demo point ECFX_COURT_BASE_URL at it.
//
// Behaviour by the last digits of the document id in the link:
//   …999  sign-in page (restricted)      …500  always 500
//   …503  503 on the first request       …777  answers after 1.5 s
//   …301  redirects to the same document id ending in 000 on the same host
//   …302  redirects to the same path on another host name of this server
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

export interface CourtSimulator {
  url: string;
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
    const id = url.pathname.split("/").filter(Boolean).pop() ?? "";
    const respond = () => {
      if (!/^\/(doc1|docs1|NDA|cgi-bin)\b/.test(url.pathname)) {
        res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      } else if (id.endsWith("301")) {
        res.writeHead(301, { location: url.pathname.replace(/301$/, "000") }).end();
      } else if (id.endsWith("302")) {
        const other = host === "127.0.0.1" ? "localhost" : "127.0.0.1";
        res.writeHead(302, { location: `http://${other}:${(server.address() as AddressInfo).port}${url.pathname}` }).end();
      } else if (id.endsWith("999")) {
        res.writeHead(200, { "content-type": "text/html" }).end(LOGIN_PAGE);
      } else if (id.endsWith("500") || (id.endsWith("503") && count === 1)) {
        res.writeHead(id.endsWith("500") ? 500 : 503, { "content-type": "text/plain" }).end("Server busy");
      } else {
        const left = unstamped.get(id) ?? 0;
        if (left > 0) unstamped.set(id, left - 1);
        const pdf = courtPdf(id, left === 0);
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
    publishEntry: (courtId, entry) => published.set(courtId, [entry, ...(published.get(courtId) ?? [])]),
    setFeed: (courtId, xml) => givenFeeds.set(courtId, xml),
    failFeed: (courtId, failing) => (failing ? failingFeeds.add(courtId) : failingFeeds.delete(courtId)),
    serveUnstamped: (documentId, times) => unstamped.set(documentId, times),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
