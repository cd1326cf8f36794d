import http from "node:http";
import type { AddressInfo } from "node:net";

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

export interface CourtSimulator {
  url: string;
  /** How often each path was requested. */
  requests: Map<string, number>;
  /** Serves the document with this id unstamped for its next `times` requests. */
  serveUnstamped(documentId: string, times: number): void;
  close(): Promise<void>;
}

export async function startCourtSimulator(port = 0, host = "127.0.0.1"): Promise<CourtSimulator> {
  const requests = new Map<string, number>();
  const unstamped = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://simulator");
    const count = (requests.get(url.pathname) ?? 0) + 1;
    requests.set(url.pathname, count);
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
    serveUnstamped: (documentId, times) => unstamped.set(documentId, times),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
