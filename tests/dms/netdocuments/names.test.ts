import { describe, expect, it } from "vitest";
import { DmsTargetError } from "../../../server/dms/dms-target";
import { item, listing, token } from "../../../server/dms/netdocuments/answers";
import { netDocumentsReason } from "../../../server/dms/netdocuments/errors";
import { vendorHttp } from "../../../server/dms/vendor-http";
import { NETDOCUMENTS_DEFAULT_BASE_URL, documentLink, netDocumentsEndpoints } from "../../../server/dms/netdocuments/hosts";
import { MAX_NAME_LENGTH, fullName, netDocumentsName, numberedName, sameName } from "../../../server/dms/netdocuments/names";
import { profileAttributes } from "../../../server/dms/netdocuments/profile";

describe("NetDocuments names", () => {
  it("replaces the characters NetDocuments forbids", () => {
    expect(netDocumentsName('Order: a/b \\ c*d?"e"<f>|g')).toBe("Order_ a_b _ c_d__e__f__g");
  });

  it("drops control characters, leading spaces and trailing dots and spaces", () => {
    expect(netDocumentsName("  Notice\u0007 of\tfiling. . ")).toBe("Notice of filing");
    expect(netDocumentsName("...")).toBe("Document");
    expect(netDocumentsName("")).toBe("Document");
  });

  it("keeps names within 200 characters, numbered copies included", () => {
    const long = "x".repeat(250);
    expect(netDocumentsName(long)).toHaveLength(MAX_NAME_LENGTH);
    const second = numberedName(long, 2);
    expect(second).toHaveLength(MAX_NAME_LENGTH);
    expect(second.endsWith("x (2)")).toBe(true);
    expect(numberedName("Notice", 1)).toBe("Notice");
    expect(numberedName("Notice", 12)).toBe("Notice (12)");
  });

  it("joins the extension and compares names without case", () => {
    expect(fullName("Notice", "pdf")).toBe("Notice.pdf");
    expect(fullName("Notice", "")).toBe("Notice");
    expect(sameName("NOTICE.pdf", "notice.PDF")).toBe(true);
    expect(sameName("Notice.pdf", "Notice (2).pdf")).toBe(false);
  });
});

describe("NetDocuments profile attributes", () => {
  it("takes numbered attributes and the author into the author field", () => {
    expect(profileAttributes("k", { "1001": "Motion", author: "Jane Roe", "7": "  " }, "3")).toEqual([
      { id: 1001, value: "Motion" },
      { id: 3, value: "Jane Roe" },
    ]);
  });

  it("refuses a property that names no attribute, and an author without an author field", () => {
    expect(() => profileAttributes("k", { Matter: "A-1" }, "3")).toThrow(/"Matter" names no NetDocuments profile attribute/);
    expect(() => profileAttributes("k", { author: "Jane" }, "")).toThrow(DmsTargetError);
  });
});

describe("NetDocuments hosts", () => {
  it("reaches the region's API host and opens documents on its web host", () => {
    const eu = netDocumentsEndpoints("k", "EU", NETDOCUMENTS_DEFAULT_BASE_URL);
    expect(eu.api.origin).toBe("https://api.eu.netdocuments.com");
    expect(documentLink(eu, "4821-0000-0001")).toBe("https://eu.netdocuments.com/neWeb2/goID.aspx?id=4821-0000-0001");
    const us = netDocumentsEndpoints("k", "", NETDOCUMENTS_DEFAULT_BASE_URL);
    expect(us.api.origin).toBe("https://api.vault.netvoyage.com");
    expect(documentLink(us, "1")).toBe("https://vault.netvoyage.com/neWeb2/goID.aspx?id=1");
  });

  it("allows only its own hosts", () => {
    const au = netDocumentsEndpoints("k", "au", NETDOCUMENTS_DEFAULT_BASE_URL);
    expect(au.purpose.hostAllowed("api.au.netdocuments.com")).toBe(true);
    expect(au.purpose.hostAllowed("api.eu.netdocuments.com")).toBe(false);
    expect(au.purpose.hostAllowed("attacker.example")).toBe(false);
  });

  it("puts every call under a switched base URL", () => {
    const local = netDocumentsEndpoints("k", "EU", "http://127.0.0.1:4100");
    expect(local.api.origin).toBe("http://127.0.0.1:4100");
    expect(documentLink(local, "9")).toBe("http://127.0.0.1:4100/neWeb2/goID.aspx?id=9");
    expect(local.purpose.hostAllowed("api.eu.netdocuments.com")).toBe(false);
  });

  it("refuses a region NetDocuments does not have", () => {
    expect(() => netDocumentsEndpoints("k", "Mars", NETDOCUMENTS_DEFAULT_BASE_URL)).toThrow(/no region "Mars"/);
  });
});

describe("NetDocuments answers", () => {
  const http = vendorHttp({ kind: "net_documents_credential", vendor: "NetDocuments", maxAnswerBytes: 1024, reasonOf: netDocumentsReason });

  it("reads items alone or under standardAttributes, and listings as arrays or standardList with a next page", () => {
    expect(http.parse(item, { standardAttributes: { id: "4821-1", name: "Notices", extension: "ndfld" } }, "reading")).toEqual({
      id: "4821-1",
      name: "Notices",
      extension: "ndfld",
    });
    expect(http.parse(item, { envId: ":Q12:a:b", name: "Smith" }, "reading")).toEqual({ id: ":Q12:a:b", name: "Smith", extension: "" });
    expect(http.parse(listing, [{ id: "1", name: "A", extension: "ndfld" }], "listing")).toEqual({
      items: [{ id: "1", name: "A", extension: "ndfld" }],
      next: undefined,
    });
    expect(http.parse(listing, { standardList: [], next: "tok" }, "listing")).toEqual({ items: [], next: "tok" });
    expect(http.parse(token, { access_token: "at", expires_in: "3600" }, "the token request")).toEqual({ access_token: "at", expires_in: 3600 });
  });

  it("refuses an entry without its name or id, permanently, rather than passing it over", () => {
    const listed = () => http.parse(listing, { standardList: [{ standardAttributes: { id: "1", extension: "ndfld" } }] }, "listing folder Smith");
    expect(listed).toThrow(DmsTargetError);
    expect(listed).toThrow("NetDocuments answered listing folder Smith in an unexpected shape: standardList.0.name: Required");
    expect(() => http.parse(item, { name: "No id" }, "creating folder A")).toThrow(
      "NetDocuments answered creating folder A in an unexpected shape: id: Required",
    );
  });

  it("finds NetDocuments' reason in its error bodies", () => {
    expect(netDocumentsReason({ error: "invalid_grant", error_description: "The refresh token has expired" })).toBe("The refresh token has expired");
    expect(netDocumentsReason({ Message: "Access to this cabinet is denied" })).toBe("Access to this cabinet is denied");
    expect(netDocumentsReason("<html>")).toBeUndefined();
  });
});
