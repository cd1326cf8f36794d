import contentDisposition from "content-disposition";
import { describe, expect, it } from "vitest";
import { dispositionOf, documentPdfDisposition } from "./content-disposition";

// Downloads keep their exact name, however odd, without ever breaking the header.
describe("Content-Disposition of served files", () => {
  it("escapes quotes and backslashes in the name instead of ending the parameter early", () => {
    const header = dispositionOf('Motion "to dismiss" \\ reply.pdf', "inline");
    expect(header).toBe('inline; filename="Motion \\"to dismiss\\" \\\\ reply.pdf"');
    expect(contentDisposition.parse(header).parameters.filename).toBe('Motion "to dismiss" \\ reply.pdf');
  });

  it("gives a name outside Latin-1 in UTF-8 with an ASCII fallback", () => {
    const header = dispositionOf("Заявление № 7.pdf");
    expect(header).toBe(
      `attachment; filename="_________ _ 7.pdf"; filename*=UTF-8''%D0%97%D0%B0%D1%8F%D0%B2%D0%BB%D0%B5%D0%BD%D0%B8%D0%B5%20%E2%84%96%207.pdf`,
    );
    expect(contentDisposition.parse(header).parameters.filename).toBe("Заявление № 7.pdf");
  });

  it("keeps a Latin-1 name exact in filename* and plain ASCII in filename", () => {
    const header = dispositionOf("Peña v. Müller.eml");
    expect(contentDisposition.parse(header).parameters.filename).toBe("Peña v. Müller.eml");
    expect(header).toMatch(/^attachment; filename="Pe_a v. M_ller.eml"; filename\*=/);
  });

  it("never lets a line break into the header", () => {
    const header = dispositionOf("a\r\nSet-Cookie: x.pdf");
    expect(header).not.toMatch(/[\r\n]/);
    expect(contentDisposition.parse(header).parameters.filename).toBe("a\r\nSet-Cookie: x.pdf");
  });

  it("names a court document's PDF after the document, inline", () => {
    expect(documentPdfDisposition('Order "granting"')).toBe('inline; filename="Order \\"granting\\".pdf"');
    expect(documentPdfDisposition("  ")).toBe('inline; filename="document.pdf"');
  });
});
