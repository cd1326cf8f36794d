import { PDFDocument, PageSizes, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { formatCents } from "../../app/common/billing";

// An invoice or credit note as a PDF (pdf-lib, standard Helvetica: nothing to embed). The same
// document gives the same bytes: the dates inside are the invoice's own, never the time of drawing.

export interface InvoicePdfInput {
  firmName: string;
  kind: "INVOICE" | "CREDIT_NOTE";
  number: number;
  month: string;
  issuedAt: number;
  currency: string;
  totalCents: number;
  correctsNumber: number | null;
  status: string;
  lines: { description: string; quantity: string; amount_cents: number }[];
}

const MARGIN = 54;
const SIZE = 10;
const GREY = rgb(0.35, 0.35, 0.35);
const BLACK = rgb(0, 0, 0);
// WinAnsi's characters beyond Latin-1 that descriptions use; anything else prints as "?".
const EXTRA = new Set([..."–—‘’“”•€…"]);
const printable = (text: string) => [...text].map((c) => (c.charCodeAt(0) <= 0xff && c.charCodeAt(0) >= 0x20 ? c : EXTRA.has(c) ? c : "?")).join("");

/** Cuts a text to the width, with "…" when it had to. */
function fit(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut.length > 1 && font.widthOfTextAtSize(`${cut}…`, size) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

export async function invoicePdf(input: InvoicePdfInput): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const date = new Date(input.issuedAt);
  pdf.setCreationDate(date);
  pdf.setModificationDate(date);
  pdf.setProducer("ECFX");
  pdf.setCreator("ECFX");
  const title = `${input.kind === "INVOICE" ? "Invoice" : "Credit note"} ${input.number}`;
  pdf.setTitle(title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = pdf.addPage(PageSizes.Letter);
  const { width, height } = page.getSize();
  const right = width - MARGIN;
  let y = height - MARGIN;

  const text = (value: string, x: number, options: { font?: PDFFont; size?: number; color?: typeof BLACK; alignRight?: boolean; maxWidth?: number } = {}) => {
    const f = options.font ?? font;
    const size = options.size ?? SIZE;
    let shown = printable(value);
    if (options.maxWidth) shown = fit(f, shown, size, options.maxWidth);
    const at = options.alignRight ? x - f.widthOfTextAtSize(shown, size) : x;
    page.drawText(shown, { x: at, y, size, font: f, color: options.color ?? BLACK });
  };
  const newLine = (gap = SIZE * 1.5) => {
    y -= gap;
    if (y < MARGIN + 40) {
      page = pdf.addPage(PageSizes.Letter);
      y = height - MARGIN;
    }
  };

  text("ECFX", MARGIN, { font: bold, size: 18 });
  text(title, right, { font: bold, size: 14, alignRight: true });
  newLine(26);
  text(`Billed to: ${input.firmName}`, MARGIN, { maxWidth: right - MARGIN - 200 });
  text(`Issued ${date.toISOString().slice(0, 10)}`, right, { alignRight: true, color: GREY });
  newLine();
  text(`Period: ${input.month}`, MARGIN);
  text(`Status: ${input.status}`, right, { alignRight: true, color: GREY });
  if (input.correctsNumber !== null) {
    newLine();
    text(`Corrects invoice ${input.correctsNumber}`, MARGIN);
  }
  newLine(30);

  const amountX = right;
  const quantityX = right - 110;
  text("Description", MARGIN, { font: bold });
  text("Quantity", quantityX - 150, { font: bold });
  text(`Amount (${input.currency})`, amountX, { font: bold, alignRight: true });
  newLine(6);
  page.drawLine({ start: { x: MARGIN, y }, end: { x: right, y }, thickness: 0.5, color: GREY });
  newLine(14);
  for (const line of input.lines) {
    text(line.description, MARGIN, { maxWidth: quantityX - 160 - MARGIN });
    text(line.quantity, quantityX - 150, { maxWidth: 140 });
    text(formatCents(line.amount_cents, input.currency), amountX, { alignRight: true });
    newLine();
  }
  newLine(4);
  page.drawLine({ start: { x: quantityX - 150, y: y + 10 }, end: { x: right, y: y + 10 }, thickness: 0.5, color: GREY });
  text("Total", quantityX - 150, { font: bold });
  text(formatCents(input.totalCents, input.currency), amountX, { font: bold, alignRight: true });
  return pdf.save({ useObjectStreams: false });
}
