import { PDFArray, PDFDocument, PDFRawStream, PageSizes, decodePDFRawStream, type PDFPage } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { noticePdfTitle, renderNoticePdf, toWinAnsi, type NoticePdfInput } from "./notice-pdf";

function notice(overrides: Partial<NoticePdfInput> = {}): NoticePdfInput {
  return {
    firmName: "Demo LLP",
    court: "U.S. District Court, Southern District of New York",
    caseNumber: "1:23-cv-00456",
    caseName: "Acme Corp v. Widgets Inc",
    date: "8/11/2021",
    filedBy: "Jane Roe",
    docketText: "MOTION to Dismiss filed by Widgets Inc. (Attachments: # 1 Exhibit A)",
    documents: [
      { name: "Motion to Dismiss", number: 12, sealed: false },
      { name: "Exhibit A", number: "12-1", sealed: true },
    ],
    serviceContacts: ["jane.roe@example.com", "john.doe@example.com"],
    receivedAt: Date.UTC(2021, 7, 11, 20, 7),
    subject: "Activity in Case 1:23-cv-00456 Acme Corp v. Widgets Inc Motion to Dismiss",
    ...overrides,
  };
}

async function load(bytes: Buffer): Promise<PDFDocument> {
  // updateMetadata: false, or pdf-lib would replace the producer while loading.
  return PDFDocument.load(bytes, { updateMetadata: false });
}

// Node's TextDecoder may read windows-1252 as Latin-1; these are the bytes where they differ.
const CP1252_HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ";

function winAnsi(bytes: Buffer): string {
  return [...bytes].map((byte) => (byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80]! : String.fromCharCode(byte))).join("");
}

/** The strings drawn on a page with their positions, from the content stream's `Tm` and hex `Tj` operators. */
function drawn(page: PDFPage): Array<{ text: string; x: number; y: number }> {
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => page.doc.context.lookup(ref)) : [contents];
  const result: Array<{ text: string; x: number; y: number }> = [];
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) continue;
    const operators = Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
    let x = 0;
    let y = 0;
    for (const match of operators.matchAll(/1 0 0 1 (-?[\d.]+) (-?[\d.]+) Tm|<([0-9A-Fa-f]*)> Tj/g)) {
      if (match[3] === undefined) {
        x = Number(match[1]);
        y = Number(match[2]);
      } else {
        result.push({ text: winAnsi(Buffer.from(match[3], "hex")), x, y });
      }
    }
  }
  return result;
}

function drawnText(page: PDFPage): string[] {
  return drawn(page).map((item) => item.text);
}

describe("notice PDF", () => {
  it("renders a PDF that parses back with its metadata", async () => {
    const bytes = await renderNoticePdf(notice());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const pdf = await load(bytes);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getTitle()).toBe("Court notice: 1:23-cv-00456 – Acme Corp v. Widgets Inc");
    expect(pdf.getTitle()).toBe(noticePdfTitle(notice()));
    expect(pdf.getSubject()).toBe(notice().subject);
    expect(pdf.getProducer()).toBe("ECFX");
    expect(pdf.getCreator()).toBe("ECFX");
    expect(pdf.getAuthor()).toBe("Demo LLP");
    expect(pdf.getCreationDate()?.getTime()).toBe(Date.UTC(2021, 7, 11, 20, 7));
  });

  it("shows the notice's fields, documents and service list", async () => {
    const pdf = await load(await renderNoticePdf(notice(), { timeZone: "America/New_York" }));
    const text = drawnText(pdf.getPage(0));
    for (const expected of [
      "Demo LLP",
      "Notice of Electronic Filing",
      "1:23-cv-00456",
      "Acme Corp v. Widgets Inc",
      "2021-08-11",
      "Jane Roe",
      "2021-08-11 16:07 EDT",
      "Motion to Dismiss",
      "12-1",
      "Exhibit A (sealed)",
      "jane.roe@example.com",
      "Page 1 of 1",
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text.join(" ")).toContain("MOTION to Dismiss filed by Widgets Inc.");
  });

  it("flows long docket text over as many pages as it needs", async () => {
    const lines = (count: number) => Array.from({ length: count }, (_, index) => `Docket line ${index + 1}`).join("\n");
    const short = await load(await renderNoticePdf(notice({ docketText: lines(10) })));
    const long = await load(await renderNoticePdf(notice({ docketText: lines(400) })));
    const longer = await load(await renderNoticePdf(notice({ docketText: lines(800) })));
    expect(short.getPageCount()).toBe(1);
    // About 48 body lines fit a Letter page: 400 lines take 8 to 10 pages, 800 twice as many.
    expect(long.getPageCount()).toBeGreaterThanOrEqual(8);
    expect(long.getPageCount()).toBeLessThanOrEqual(10);
    expect(longer.getPageCount()).toBeGreaterThanOrEqual(2 * long.getPageCount() - 1);
    const pages = long.getPages();
    const all = pages.flatMap(drawnText);
    for (const index of [1, 200, 400]) expect(all).toContain(`Docket line ${index}`);
    pages.forEach((page, index) => expect(drawnText(page)).toContain(`Page ${index + 1} of ${pages.length}`));
    // Body text stays between the top margin and the footer; only the footer sits on the bottom margin.
    for (const page of pages) {
      expect(page.getSize()).toEqual({ width: PageSizes.Letter[0], height: PageSizes.Letter[1] });
      for (const item of drawn(page)) {
        expect(item.y).toBeLessThanOrEqual(PageSizes.Letter[1] - 54);
        if (item.y < 78) expect(item.y === 54 && /ECFX|^Page /.test(item.text), item.text).toBe(true);
      }
    }
  });

  it("wraps words to the page and breaks a word longer than a line", async () => {
    const url = `https://ecf.nysd.uscourts.gov/doc1/${"x".repeat(600)}`;
    const words = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(40);
    const pdf = await load(await renderNoticePdf(notice({ docketText: `${words}\n${url}` })));
    const text = pdf.getPages().flatMap(drawnText);
    const urlLines = text.filter((line) => /^(https:|x+$)/.test(line));
    expect(urlLines.length).toBeGreaterThan(3);
    expect(urlLines.join("")).toBe(url);
    // Helvetica at 10 pt is at most ~10 pt per character, the line 504 pt wide; no line runs far past it.
    for (const line of text) expect(line.length).toBeLessThan(200);
  });

  it("uses A4 when asked", async () => {
    const pdf = await load(await renderNoticePdf(notice(), { pageSize: "A4" }));
    expect(pdf.getPage(0).getSize()).toEqual({ width: PageSizes.A4[0], height: PageSizes.A4[1] });
  });

  it("replaces what Helvetica cannot encode instead of failing", async () => {
    const hostile = "Łódź 北京 😀 \uD800 e\u0301 \u202Eevil \u0007 ‐‑−→ ≤ ő\ttab";
    const bytes = await renderNoticePdf(
      notice({
        caseName: hostile,
        docketText: hostile,
        filedBy: hostile,
        documents: [{ name: hostile, number: null, sealed: false }],
        serviceContacts: [hostile],
        subject: hostile,
        firmName: hostile,
      }),
    );
    const pdf = await load(bytes);
    const lines = drawnText(pdf.getPage(0));
    const text = lines.join("\n").replace(/ +/g, " ");
    expect(text).toContain("Lódz ?? ? ? é evil ----> <= o tab");
    // A document without a number gets a dash.
    expect(lines[lines.indexOf("Documents") + 1]).toBe("–");
    // Metadata is UTF-16 and keeps the original text.
    expect(pdf.getTitle()).toContain("北京");
    expect(await toWinAnsi("“Smart” quotes — and € stay")).toBe("“Smart” quotes — and € stay");
    expect(await toWinAnsi("Ł\u00A0ı\u2011\u00AD")).toBe("L i-");
  });

  it("copes with empty fields", async () => {
    const pdf = await load(
      await renderNoticePdf(
        notice({
          firmName: "",
          court: "",
          caseNumber: "",
          caseName: "",
          date: null,
          filedBy: "",
          docketText: "",
          documents: [],
          serviceContacts: [],
          subject: "",
          receivedAt: "not a date",
        }),
      ),
    );
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getTitle()).toBe("Court notice");
    expect(drawnText(pdf.getPage(0))).toContain("None");
  });

  it("gives the same bytes for the same notice", async () => {
    const first = await renderNoticePdf(notice());
    const second = await renderNoticePdf(notice());
    expect(first.equals(second)).toBe(true);
  });
});
