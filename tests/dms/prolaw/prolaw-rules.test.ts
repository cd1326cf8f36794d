import { describe, expect, it } from "vitest";
import { MAX_FILE_NAME, firstFreeName, proLawSafeName } from "../../../server/dms/prolaw/prolaw-names";
import { documentDate, documentProfile } from "../../../server/dms/prolaw/prolaw-profile";
import { proLawReason } from "../../../server/dms/prolaw/prolaw-api";
import { proLawCredentials } from "../../../app/common/resources/credentials";

// ProLaw's name rules (Windows file names on the firm's share), the profile a filing becomes,
// and how ProLaw's refusals are read.

describe("ProLaw names", () => {
  it("replaces what Windows refuses and keeps reserved names apart", () => {
    expect(proLawSafeName('2:24-cv-501 <Order>? "A|B" a/b\\c*', 100)).toBe("2_24-cv-501 _Order__ _A_B_ a_b_c_");
    expect(proLawSafeName("Exhibit A. . ", 100)).toBe("Exhibit A");
    expect(proLawSafeName("CON", 100)).toBe("CON_");
    expect(proLawSafeName("lpt1.txt", 100)).toBe("lpt1.txt_");
    expect(proLawSafeName("tab\there\u0007", 100)).toBe("tab_here_");
    expect(proLawSafeName("   ", 100)).toBe("_");
    expect(proLawSafeName("x".repeat(150), 100)).toHaveLength(100);
  });

  it("numbers a taken name, compared without case, and stays within 255 characters", () => {
    expect(firstFreeName("Notice", "pdf", [])).toBe("Notice.pdf");
    expect(firstFreeName("Notice", "pdf", ["NOTICE.PDF", "notice (2).pdf"])).toBe("Notice (3).pdf");
    expect(firstFreeName("Notice", "", ["Notice"])).toBe("Notice (2)");
    const long = firstFreeName("y".repeat(400), "pdf", [`${"y".repeat(MAX_FILE_NAME - 4)}.pdf`]);
    expect(long).toHaveLength(MAX_FILE_NAME);
    expect(long.endsWith(" (2).pdf")).toBe(true);
  });
});

describe("ProLaw document profile", () => {
  const matter = { MattersId: "MT-1", MatterId: "M-1", ParentMattersId: "MT-0" };
  const request = (properties: Record<string, string>, filedOn: string | null = "2026-11-20T10:00:00Z") => ({
    folder: [],
    name: "Order",
    extension: "pdf",
    bytes: Buffer.alloc(0),
    contentType: "application/pdf",
    properties,
    subject: {
      matter: { number: "M-1", name: "A v. B", reference: null },
      case: { number: "1", name: "A v. B" },
      docketText: "ORDER  granting\nmotion",
      filedOn,
      timeZone: "UTC",
    },
  });

  it("maps the profile's own fields, keeps the rest as custom fields, and reads the date", () => {
    const profile = documentProfile(
      request({ "Document Type": "Order", DOCUMENT_CLASS: "Court", filer: "Clerk", Judge: "Gilstrap", Empty: " " }),
      "Order.pdf",
      "F1",
      "ecfx:k:h",
      matter,
      false,
    );
    expect(profile).toEqual({
      FileName: "Order.pdf",
      FolderId: "F1",
      ExternalReference: "ecfx:k:h",
      DocumentType: "Order",
      DocumentClass: "Court",
      Author: "Clerk",
      Description: "ORDER granting motion",
      DocumentDate: "2026-11-20",
      Fields: { Judge: "Gilstrap" },
    });
    const withParent = documentProfile(request({ author: "A", filer: "F", Description: "Mine" }, "bad"), "Order.pdf", null, "r", matter, true);
    expect(withParent).toMatchObject({ Author: "A", Description: "Mine", ParentMattersId: "MT-0", FolderId: null });
    expect(withParent.DocumentDate).toBeUndefined();
    expect(withParent.Fields).toBeUndefined();
  });

  it("reads US and ISO dates only", () => {
    expect(documentDate("3/7/2026")).toBe("2026-03-07");
    expect(documentDate("2026-03-07")).toBe("2026-03-07");
    expect(documentDate("March 7")).toBeUndefined();
    expect(documentDate(null)).toBeUndefined();
  });

  it("reads ProLaw's reason from its error body", () => {
    expect(proLawReason('{"Message":"The request is invalid.","MessageDetail":"FileName is required"}')).toBe("The request is invalid. FileName is required");
    expect(proLawReason("<html>  Service \n Unavailable</html>")).toBe("<html> Service Unavailable</html>");
  });
});

describe("the ProLaw credential's fields", () => {
  it("asks for the base URL in the catalogue's words, left out or not an address", () => {
    const missing = proLawCredentials.schema.safeParse({ name: "ProLaw", api_key: "k" });
    expect(missing.error?.flatten().fieldErrors).toEqual({ base_url: ["errors:required"] });
    const notUrl = proLawCredentials.schema.safeParse({ name: "ProLaw", api_key: "k", base_url: "prolaw.firm.local/api" });
    expect(notUrl.error?.flatten().fieldErrors).toEqual({ base_url: ["errors:invalidUrl"] });
    expect(proLawCredentials.schema.safeParse({ name: "ProLaw", api_key: "k", base_url: "https://prolaw.firm.local/ProLaw/api" }).success).toBe(true);
  });
});
