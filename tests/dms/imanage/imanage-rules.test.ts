import { describe, expect, it } from "vitest";
import { IMANAGE_DEFAULT_BASE_URL, cloudBase, cloudHost, imanagePurpose } from "../../../server/dms/imanage/imanage-hosts";
import { vendorReason } from "../../../server/dms/imanage/imanage-http";
import { retryAfterMs } from "../../../server/dms/vendor-http";
import { MAX_NAME_LENGTH, candidateName, firstFreeName, imanageExtension, imanageName } from "../../../server/dms/imanage/imanage-names";
import { documentProfile, filingComment } from "../../../server/dms/imanage/imanage-profile";

describe("iManage names", () => {
  it("replaces the characters iManage refuses and trims trailing dots and spaces", () => {
    expect(imanageName('Order: "A" <B> | C/D\\E*F?')).toBe("Order_ _A_ _B_ _ C_D_E_F_");
    expect(imanageName("Notice of filing. . ")).toBe("Notice of filing");
    expect(imanageName("Line\none\ttab")).toBe("Line one tab");
  });

  it("keeps names within 254 characters and never empty", () => {
    expect(imanageName("x".repeat(400))).toHaveLength(MAX_NAME_LENGTH);
    expect(imanageName(" ... ")).toBe("Document");
    expect(imanageName("???")).toBe("___");
  });

  it("numbers copies so the suffix always fits", () => {
    expect(candidateName("Order", 1)).toBe("Order");
    expect(candidateName("Order", 3)).toBe("Order (3)");
    const long = candidateName("y".repeat(MAX_NAME_LENGTH), 12);
    expect(long).toHaveLength(MAX_NAME_LENGTH);
    expect(long.endsWith(" (12)")).toBe(true);
  });

  it("picks the first name no document in the folder has, without regard to case", () => {
    expect(firstFreeName("Order", "pdf", [])).toBe("Order");
    expect(firstFreeName("Order", "pdf", ["ORDER.PDF", "Order (2).pdf"])).toBe("Order (3)");
    expect(firstFreeName("Order", "pdf", ["Order.docx"])).toBe("Order");
  });

  it("takes plain extensions only", () => {
    expect(imanageExtension(".PDF")).toBe("pdf");
    expect(imanageExtension("")).toBe("");
    expect(imanageExtension("p/df")).toBeNull();
  });
});

describe("iManage hosts", () => {
  it("names each cloud environment's host and a firm's own subdomain", () => {
    expect(cloudHost("us")).toBe("cloudimanage.com");
    expect(cloudHost("EU")).toBe("eu.cloudimanage.com");
    expect(cloudHost("https://firm.cloudimanage.com/")).toBe("firm.cloudimanage.com");
    expect(cloudHost("evil.example")).toBeNull();
    expect(cloudHost("cloudimanage.com.evil.example")).toBeNull();
  });

  it("goes to the environment's host unless the operator switched the base URL", () => {
    expect(cloudBase("AU", IMANAGE_DEFAULT_BASE_URL)?.origin).toBe("https://au.cloudimanage.com");
    expect(cloudBase("AU", "http://127.0.0.1:4000/anything")?.origin).toBe("http://127.0.0.1:4000");
  });

  it("allows only the credential's server and the operator's base URL", () => {
    const purpose = imanagePurpose(new URL("https://eu.cloudimanage.com"), IMANAGE_DEFAULT_BASE_URL);
    expect(purpose.hostAllowed("eu.cloudimanage.com")).toBe(true);
    expect(purpose.hostAllowed("cloudimanage.com")).toBe(true);
    expect(purpose.hostAllowed("au.cloudimanage.com")).toBe(false);
    expect(purpose.hostAllowed("evil.example")).toBe(false);
  });
});

describe("iManage answers", () => {
  it("reads Retry-After as seconds or as a date", () => {
    expect(retryAfterMs("7", 0)).toBe(7000);
    const now = Date.parse("2026-11-26T08:00:00Z");
    expect(retryAfterMs("Thu, 26 Nov 2026 08:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it("finds iManage's reason in Work API and sign-in error bodies", () => {
    expect(vendorReason({ error: { code: "NRC_NO_RECORD", code_message: "The folder was not found" } })).toBe("The folder was not found");
    expect(vendorReason({ error: "invalid_grant", error_description: "Bad password" })).toBe("Bad password");
    expect(vendorReason("<html>")).toBeUndefined();
  });
});

describe("iManage document profile", () => {
  const settings = {
    author_field: "FILER",
    document_class: "PLEADING",
    document_sub_class: "",
    default_security: "inherit",
    custom_properties: { custom1: "ACME", custom2: "from credential" },
  };
  const request = {
    folder: [],
    name: "Order",
    extension: "pdf",
    bytes: Buffer.from("x"),
    contentType: "application/pdf",
    properties: {} as Record<string, string>,
  };

  it("sets class, security, author and the filing's comment, leaving empty fields to iManage", () => {
    expect(documentProfile(settings, request, "Order", "pdf", "rec-1")).toEqual({
      name: "Order",
      extension: "pdf",
      comment: filingComment("rec-1"),
      author: "FILER",
      class: "PLEADING",
      default_security: "inherit",
      custom1: "ACME",
      custom2: "from credential",
    });
  });

  it("lets the policy's properties name the author and custom fields, and ignores others", () => {
    const properties = { author: "JDOE", custom2: "from policy", custom30: "last", custom31: "no such field", court: "ignored", comment: "not ours to set" };
    const profile = documentProfile(settings, { ...request, properties }, "Order", "pdf", "rec-1");
    expect(profile).toMatchObject({ author: "JDOE", custom1: "ACME", custom2: "from policy", custom30: "last", comment: filingComment("rec-1") });
    expect(profile).not.toHaveProperty("custom31");
    expect(profile).not.toHaveProperty("court");
  });
});
