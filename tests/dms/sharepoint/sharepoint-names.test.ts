import { describe, expect, it } from "vitest";
import { parseLibraryUrl } from "../../../server/dms/sharepoint/library-url";
import { MAX_PATH_LENGTH, firstFreeName, sharePointFileName, sharePointFolder, sharePointSegment } from "../../../server/dms/sharepoint/sharepoint-names";
import { documentDescription, isFromFiling, profileFields } from "../../../server/dms/sharepoint/sharepoint-profile";
import { sharePointReason } from "../../../server/dms/sharepoint/sharepoint-api";
import { retryAfterMs } from "../../../server/dms/vendor-http";

describe("SharePoint names", () => {
  it.each([
    ['Motion: "Dismiss" <draft>?', "Motion_ _Dismiss_ _draft__"],
    ["a/b\\c|d*e", "a_b_c_d_e"],
    ["  Order.  ", "Order"],
    ["Exhibit...", "Exhibit"],
    ["CON", "CON_"],
    ["lpt7", "lpt7_"],
    ["desktop.ini", "desktop.ini_"],
    ["notes.lock", "notes.lock_"],
    ["my_vti_folder", "myvtifolder"],
    ["tab\there", "tabhere"],
  ])("makes %j into %j", (raw, name) => {
    expect(sharePointSegment(raw)).toBe(name);
  });

  it("keeps a segment to 255 characters without leaving a trailing space or dot", () => {
    const name = sharePointSegment(`${"a".repeat(253)}. b`);
    expect(name).toBe("a".repeat(253));
    expect(sharePointSegment("x".repeat(300))).toHaveLength(255);
  });

  it("drops folder segments that are empty once cleaned", () => {
    expect(sharePointFolder(["Acme", " ... ", "Case: 1"])).toEqual(["Acme", "Case_ 1"]);
  });

  it("numbers copies before the extension and shortens the stem to fit the path", () => {
    expect(sharePointFileName("Notice", "pdf", 1)).toBe("Notice.pdf");
    expect(sharePointFileName("Notice", "pdf", 3)).toBe("Notice (3).pdf");
    expect(sharePointFileName("CON", "pdf")).toBe("CON_.pdf");
    const name = sharePointFileName("n".repeat(300), "pdf", 2, 300);
    expect(name).toBe(`${"n".repeat(MAX_PATH_LENGTH - 300 - " (2).pdf".length)} (2).pdf`);
    expect(() => sharePointFileName("Notice", "pdf", 1, MAX_PATH_LENGTH)).toThrow(RangeError);
  });

  it("takes the first name no document has, compared without case", async () => {
    const taken = new Set(["notice.pdf", "notice (2).pdf"]);
    expect(await firstFreeName("Notice", "pdf", 0, async (name) => taken.has(name.toLowerCase()))).toBe("Notice (3).pdf");
  });
});

describe("SharePoint library addresses", () => {
  it("splits a library address into site, library and folders", () => {
    expect(parseLibraryUrl("https://Contoso.sharepoint.com/sites/Legal/Shared%20Documents/ECFX/Filings")).toEqual({
      host: "contoso.sharepoint.com",
      origin: "https://contoso.sharepoint.com",
      sitePath: "/sites/Legal",
      library: "Shared Documents",
      folders: ["ECFX", "Filings"],
    });
    expect(parseLibraryUrl("https://sp.contoso.local/Documents/Forms/AllItems.aspx")).toMatchObject({ sitePath: "", library: "Documents", folders: [] });
    expect(() => parseLibraryUrl("not a url")).toThrow(RangeError);
  });
});

describe("SharePoint document profile", () => {
  it("puts the author into the author column and the rest into columns of their names", () => {
    expect(profileFields({ author_field: "FiledBy", signature: "" }, { CaseNumber: "1:26-cv-1", filer: "Jane Filer" })).toEqual({
      CaseNumber: "1:26-cv-1",
      FiledBy: "Jane Filer",
    });
    expect(profileFields({ author_field: "", signature: "" }, { author: "Jane" })).toEqual({});
  });

  it("names the filing in the description, after the firm's signature", () => {
    const description = documentDescription({ author_field: "", signature: "Filed by ECFX" }, "rec-1");
    expect(description).toBe("Filed by ECFX\nECFX filing rec-1");
    expect(isFromFiling(description, "rec-1")).toBe(true);
    expect(isFromFiling(description, "rec-11")).toBe(false);
    expect(isFromFiling(null, "rec-1")).toBe(false);
  });
});

describe("SharePoint answers", () => {
  it("reads Retry-After as seconds or as a date", () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(retryAfterMs("30", now)).toBe(30_000);
    expect(retryAfterMs("Thu, 01 Jan 2026 12:00:10 GMT", now)).toBe(10_000);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it("finds the vendor's reason in Graph, SharePoint REST and OAuth error bodies", () => {
    expect(sharePointReason({ error: { code: "accessDenied", message: "Access denied" } })).toBe("Access denied");
    expect(sharePointReason({ "odata.error": { code: "-1", message: { lang: "en-US", value: "File Not Found." } } })).toBe("File Not Found.");
    expect(sharePointReason({ error: { code: "-2130575257", message: { lang: "en-US", value: "A file with that name exists." } } })).toBe(
      "A file with that name exists.",
    );
    expect(sharePointReason({ error: "invalid_client", error_description: "AADSTS7000215: Invalid client secret\r\nTrace ID: 1" })).toBe(
      "AADSTS7000215: Invalid client secret",
    );
    // Not the vendor's JSON (an HTML error page): the layer says the status instead.
    expect(sharePointReason("<html>Service Unavailable</html>")).toBeUndefined();
  });
});
