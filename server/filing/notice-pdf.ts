import { PDFDocument, PageSizes, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { isoDate } from "../dms/path-template";
import { message } from "../lib/messages";

/**
 * The notice as a PDF, for firms whose storage policy stores e-mail as PDF. Standard Helvetica
 * only (nothing to embed, small files); it encodes WinAnsi, so other characters are transliterated
 * or shown as "?" instead of failing the whole notice. The same input gives the same bytes, so the
 * blob store keeps one copy.
 */

export interface NoticePdfDocument {
  name: string;
  number: number | string | null;
  sealed: boolean;
}

export interface NoticePdfInput {
  firmName: string;
  court: string;
  caseNumber: string;
  caseName: string;
  /** Filing date, ISO or as the notice wrote it. */
  date: string | null;
  filedBy: string;
  docketText: string;
  documents: NoticePdfDocument[];
  serviceContacts: string[];
  receivedAt: Date | number | string;
  subject: string;
}

export interface NoticePdfOptions {
  pageSize?: "Letter" | "A4";
  /** IANA zone for the received time, e.g. the firm's default_time_zone; UTC otherwise. */
  timeZone?: string;
}

export const NOTICE_PDF_PRODUCER = "ECFX";

const MARGIN = 54;
const BODY_SIZE = 10;
const LINE_GAP = 1.35;
const LABEL_WIDTH = 96;
const FOOTER_SIZE = 8;
const GREY = rgb(0.35, 0.35, 0.35);
const BLACK = rgb(0, 0, 0);

// Characters Helvetica's WinAnsi encoding lacks, with a readable stand-in.
const STAND_INS: Record<string, string> = {
  "\u00A0": " ",
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2015": "—",
  "\u2212": "-",
  "\u2032": "'",
  "\u2033": '"',
  "\u2190": "<-",
  "\u2192": "->",
  "\u2264": "<=",
  "\u2265": ">=",
  "\u2260": "!=",
  "\u2116": "No.",
  "\u0141": "L",
  "\u0142": "l",
  "\u0110": "D",
  "\u0111": "d",
  "\u0131": "i",
  "\u00AD": "",
};

let winAnsi: Set<number> | null = null;

async function characterSet(): Promise<Set<number>> {
  if (!winAnsi) {
    const probe = await PDFDocument.create();
    winAnsi = new Set((await probe.embedFont(StandardFonts.Helvetica)).getCharacterSet());
  }
  return winAnsi;
}

function encodable(text: string, charset: Set<number>): string {
  let result = "";
  for (const char of text.normalize("NFC")) {
    const code = char.codePointAt(0)!;
    if (char in STAND_INS) {
      // Before the font check: the font has a soft hyphen and a no-break space, but they hinder wrapping.
      result += STAND_INS[char];
    } else if (charset.has(code) || char === "\n") {
      result += char;
    } else if (/[\p{Cc}\p{Cf}]/u.test(char)) {
      // Controls and invisible format characters are dropped; tabs become spaces.
      if (char === "\t") result += "    ";
    } else if (/\p{Zs}/u.test(char)) {
      result += " ";
    } else {
      // "ő" → "o": the base letter when the font has it, else a visible placeholder.
      const base = [...char.normalize("NFKD")].filter((part) => !/\p{M}/u.test(part) && charset.has(part.codePointAt(0)!)).join("");
      result += base || "?";
    }
  }
  return result;
}

/** Text as the standard fonts can draw it; newlines are kept for the caller's line breaking. */
export async function toWinAnsi(text: string): Promise<string> {
  return encodable(text, await characterSet());
}

/** Greedy word wrap; a word wider than the line (a URL) is broken between characters. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split("\n")) {
    const words = paragraph.split(" ");
    let line = "";
    const fits = (candidate: string) => font.widthOfTextAtSize(candidate, size) <= width;
    for (const word of words) {
      const candidate = line === "" ? word : `${line} ${word}`;
      if (fits(candidate)) {
        line = candidate;
        continue;
      }
      if (line !== "") lines.push(line);
      line = "";
      let rest = word;
      while (rest !== "" && !fits(rest)) {
        let cut = 1;
        while (cut < rest.length && fits(rest.slice(0, cut + 1))) cut++;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

function ellipsis(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let end = text.length;
  while (end > 0 && font.widthOfTextAtSize(`${text.slice(0, end)}…`, size) > width) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}

function formatReceived(value: Date | number | string, timeZone: string | undefined): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  let zone = timeZone ?? "UTC";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
  } catch {
    zone = "UTC";
  }
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${parts.timeZoneName ?? zone}`;
}

export function noticePdfTitle(input: Pick<NoticePdfInput, "caseNumber" | "caseName">): string {
  const which = [input.caseNumber, input.caseName]
    .map((part) => (part ?? "").trim())
    .filter(Boolean)
    .join(" – ");
  return which ? message("notice:title", { which }) : message("notice:untitled");
}

export async function renderNoticePdf(input: NoticePdfInput, options: NoticePdfOptions = {}): Promise<Buffer> {
  const charset = await characterSet();
  const clean = (text: string | null | undefined) => encodable((text ?? "").replace(/\r\n?/g, "\n"), charset);
  const cleanLine = (text: string | null | undefined) => clean(text).replace(/\n/g, " ");

  const pdf = await PDFDocument.create({ updateMetadata: false });
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const pageSize = options.pageSize === "A4" ? PageSizes.A4 : PageSizes.Letter;
  const [pageWidth, pageHeight] = pageSize;
  const contentWidth = pageWidth - 2 * MARGIN;
  const bottom = MARGIN + FOOTER_SIZE * 3;

  let page: PDFPage = pdf.addPage(pageSize);
  let y = pageHeight - MARGIN;

  const lineHeight = (size: number) => size * LINE_GAP;
  const room = (height: number) => {
    if (y - height < bottom) {
      page = pdf.addPage(pageSize);
      y = pageHeight - MARGIN;
    }
  };
  const lines = (text: string, font: PDFFont, size: number, x: number, width: number, color = BLACK) => {
    for (const line of wrap(clean(text), font, size, width)) {
      room(lineHeight(size));
      y -= lineHeight(size);
      if (line !== "") page.drawText(line, { x, y, size, font, color });
    }
  };
  const gap = (height: number) => {
    y -= height;
  };
  const heading = (text: string) => {
    gap(BODY_SIZE * 0.8);
    // A heading never ends a page on its own.
    room(lineHeight(12) + lineHeight(BODY_SIZE) * 2);
    lines(text, bold, 12, MARGIN, contentWidth);
    gap(2);
  };
  const field = (label: string, value: string) => {
    const valueLines = wrap(cleanLine(value).trim() || "—", regular, BODY_SIZE, contentWidth - LABEL_WIDTH);
    valueLines.forEach((line, index) => {
      room(lineHeight(BODY_SIZE));
      y -= lineHeight(BODY_SIZE);
      if (index === 0) page.drawText(cleanLine(label), { x: MARGIN, y, size: BODY_SIZE, font: bold, color: GREY });
      if (line !== "") page.drawText(line, { x: MARGIN + LABEL_WIDTH, y, size: BODY_SIZE, font: regular });
    });
  };

  if (input.firmName) lines(input.firmName, regular, 9, MARGIN, contentWidth, GREY);
  gap(4);
  lines(message("notice:heading"), bold, 16, MARGIN, contentWidth);
  if (input.subject) lines(input.subject, regular, BODY_SIZE, MARGIN, contentWidth, GREY);
  gap(8);

  field(message("notice:court"), input.court);
  field(message("notice:caseNumber"), input.caseNumber);
  field(message("notice:caseName"), input.caseName);
  field(message("notice:filed"), isoDate(input.date) ?? input.date ?? "");
  field(message("notice:filedBy"), input.filedBy);
  field(message("notice:received"), formatReceived(input.receivedAt, options.timeZone));

  heading(message("notice:docketText"));
  lines(input.docketText || "—", regular, BODY_SIZE, MARGIN, contentWidth);

  heading(message("notice:documents"));
  if (input.documents.length === 0) lines(message("notice:none"), regular, BODY_SIZE, MARGIN, contentWidth, GREY);
  for (const document of input.documents) {
    const number = document.number === null || document.number === undefined || document.number === "" ? "–" : String(document.number);
    room(lineHeight(BODY_SIZE));
    page.drawText(cleanLine(number), { x: MARGIN, y: y - lineHeight(BODY_SIZE), size: BODY_SIZE, font: bold });
    lines(
      `${document.name || message("notice:document")}${document.sealed ? ` ${message("notice:sealed")}` : ""}`,
      regular,
      BODY_SIZE,
      MARGIN + 28,
      contentWidth - 28,
    );
  }

  heading(message("notice:serviceList"));
  if (input.serviceContacts.length === 0) lines(message("notice:none"), regular, BODY_SIZE, MARGIN, contentWidth, GREY);
  for (const contact of input.serviceContacts) lines(contact, regular, BODY_SIZE, MARGIN, contentWidth);

  const pages = pdf.getPages();
  const footer = ellipsis(
    cleanLine(
      `${input.caseNumber ? `${input.caseNumber} · ` : ""}${message("notice:footerReceived", { at: formatReceived(input.receivedAt, options.timeZone) })} · ${NOTICE_PDF_PRODUCER}`,
    ),
    regular,
    FOOTER_SIZE,
    contentWidth - 80,
  );
  pages.forEach((each, index) => {
    const label = message("notice:page", { page: index + 1, pages: pages.length });
    each.drawText(footer, { x: MARGIN, y: MARGIN, size: FOOTER_SIZE, font: regular, color: GREY });
    each.drawText(label, { x: pageWidth - MARGIN - regular.widthOfTextAtSize(label, FOOTER_SIZE), y: MARGIN, size: FOOTER_SIZE, font: regular, color: GREY });
  });

  pdf.setTitle(noticePdfTitle(input), { showInWindowTitleBar: true });
  if (input.subject) pdf.setSubject(input.subject);
  if (input.firmName) pdf.setAuthor(input.firmName);
  pdf.setKeywords([input.caseNumber, input.court].filter((keyword) => keyword && keyword.trim() !== ""));
  pdf.setProducer(NOTICE_PDF_PRODUCER);
  pdf.setCreator(NOTICE_PDF_PRODUCER);
  const received = new Date(input.receivedAt);
  if (!Number.isNaN(received.getTime())) {
    pdf.setCreationDate(received);
    pdf.setModificationDate(received);
  }
  return Buffer.from(await pdf.save());
}
