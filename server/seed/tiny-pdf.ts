// A one-page PDF of a few lines of text, written by hand: the demo year's documents need real
// files that open, thousands of them, and pdf-lib takes milliseconds for each.

/** PDF string literal of Latin-1 text; other characters become "?". */
function literal(text: string): string {
  const latin1 = [...text].map((c) => (c.charCodeAt(0) < 256 ? c : "?")).join("");
  return `(${latin1.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

export function tinyPdf(title: string, lines: string[]): Buffer {
  const text = [`BT /F1 16 Tf 72 740 Td ${literal(title)} Tj ET`, ...lines.map((line, i) => `BT /F1 11 Tf 72 ${710 - i * 16} Td ${literal(line)} Tj ET`)].join(
    "\n",
  );
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${Buffer.byteLength(text, "latin1")} >>\nstream\n${text}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}
