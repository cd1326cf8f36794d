import { describe, expect, it } from "vitest";
import { BOX_MAX_NAME_LENGTH, boxFileName, boxSafeName, firstFreeName } from "../../../server/dms/box/box-names";
import { BoxSdkError } from "box-node-sdk/lib/box/errors";
import { BoxCallError, retryAfterMs, toDmsError } from "../../../server/dms/box/box-errors";
import { filingMetadata, isFilingCopy, metadataKey } from "../../../server/dms/box/box-metadata";
import { BOX_DEFAULT_BASE_URL, boxPurpose, boxUrls } from "../../../server/dms/box/box-hosts";

describe("Box names", () => {
  it("replaces slashes and control characters and trims spaces", () => {
    expect(boxSafeName(" Smith / Jones \\ 2026 ")).toBe("Smith _ Jones _ 2026");
    expect(boxSafeName("tab\there")).toBe("tab_here");
  });

  it("never gives '.', '..' or an empty name", () => {
    expect(boxSafeName(".")).toBe("document");
    expect(boxSafeName("..")).toBe("document");
    expect(boxSafeName("   ")).toBe("document");
  });

  it("keeps a file name within 255 characters, shortening the stem and keeping the copy number and extension", () => {
    const long = "x".repeat(300);
    const name = boxFileName(long, "pdf", 12);
    expect(name).toHaveLength(BOX_MAX_NAME_LENGTH);
    expect(name.endsWith("x (12).pdf")).toBe(true);
    expect(boxFileName("Order", "")).toBe("Order");
  });

  it("does not leave a trailing space where the stem was cut", () => {
    const stem = `${"a".repeat(250)} bcdefgh`;
    expect(boxFileName(stem, "pdf")).toBe(`${"a".repeat(250)}.pdf`);
  });

  it("picks the first name no item has, comparing without case as Box does", () => {
    expect(firstFreeName("Order", "pdf", [])).toBe("Order.pdf");
    expect(firstFreeName("Order", "pdf", ["ORDER.PDF", "order (2).pdf"])).toBe("Order (3).pdf");
    expect(firstFreeName("Order", "pdf", ["Order.txt"])).toBe("Order.pdf");
  });
});

describe("Box errors", () => {
  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-26T08:00:00Z");
    expect(retryAfterMs("30", now)).toBe(30_000);
    expect(retryAfterMs("Thu, 26 Nov 2026 08:00:45 GMT", now)).toBe(45_000);
    expect(retryAfterMs("Thu, 26 Nov 2026 07:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it("classifies Box's answers: throttling and faults pass, refusals are final", () => {
    const throttled = toDmsError(new BoxCallError(429, "rate_limit_exceeded", "Slow down", 5000, false), "Box refused the upload");
    expect(throttled).toMatchObject({ retryable: true, retryAfterMs: 5000, message: "Box could not take the upload: Slow down" });
    expect(toDmsError(new BoxCallError(502, undefined, "HTTP 502", undefined, false), "Box refused the upload").retryable).toBe(true);
    const offShape = new BoxSdkError({ message: 'Expecting "id" of type "FolderFull" to be defined' });
    expect(toDmsError(offShape, "Box refused to create folder /Acme")).toMatchObject({
      retryable: false,
      message: 'Box answered the request to create folder /Acme in an unexpected shape: Expecting "id" of type "FolderFull" to be defined',
    });
    for (const status of [400, 401, 403, 404]) {
      const error = toDmsError(new BoxCallError(status, "x", "Access denied", undefined, false), "Box refused the upload");
      expect(error).toMatchObject({ retryable: false, message: "Box refused the upload: Access denied" });
    }
  });

  it("says 'Token generation failed' for a refused grant, but lets a busy token endpoint pass", () => {
    expect(toDmsError(new BoxCallError(400, "invalid_grant", "Grant credentials are invalid", undefined, true), "x")).toMatchObject({
      retryable: false,
      message: "Token generation failed: Grant credentials are invalid",
    });
    expect(toDmsError(new BoxCallError(503, undefined, "HTTP 503", undefined, true), "Box refused the sign-in").retryable).toBe(true);
  });
});

describe("Box metadata", () => {
  it("turns property names into metadata keys Box takes", () => {
    expect(metadataKey("Case Number")).toBe("Case_Number");
    expect(metadataKey("$id")).toBe("id");
    expect(metadataKey("  ")).toBe("property");
  });

  it("recognises the filing's copy by key and content, whatever else the properties say", () => {
    const metadata = filingMetadata({ ecfxFilingKey: "forged" }, "filing-1", "abc");
    expect(metadata.ecfxFilingKey).toBe("filing-1");
    const item = { type: "file" as const, id: "1", name: "a.pdf", metadata: { global: { properties: metadata } } };
    expect(isFilingCopy(item, "filing-1", "abc")).toBe(true);
    expect(isFilingCopy(item, "filing-1", "abd")).toBe(false);
    expect(isFilingCopy({ ...item, metadata: undefined }, "filing-1", "abc")).toBe(false);
  });
});

describe("Box hosts", () => {
  it("reaches api, upload and OAuth under one switched base, and Box's own hosts by default", () => {
    expect(boxUrls(BOX_DEFAULT_BASE_URL)).toMatchObject({ baseUrl: "https://api.box.com", uploadUrl: "https://upload.box.com/api" });
    expect(boxUrls("https://box-proxy.firm.example/")).toMatchObject({
      baseUrl: "https://box-proxy.firm.example",
      uploadUrl: "https://box-proxy.firm.example/api",
      oauth2Url: "https://box-proxy.firm.example/api/oauth2",
    });
  });

  it("allows Box's hosts and the configured base's host only", () => {
    const purpose = boxPurpose("https://box-proxy.firm.example");
    for (const host of ["api.box.com", "upload.box.com", "box-proxy.firm.example"]) expect(purpose.hostAllowed(host)).toBe(true);
    for (const host of ["box.com.evil.example", "evilbox.com", "firm.example"]) expect(purpose.hostAllowed(host)).toBe(false);
  });
});

describe("the local Box's answers", () => {
  it("are judged by Box's description too: an answer it does not allow is caught", async () => {
    const { checkAnswer } = await import("./box-contract");
    expect(await checkAnswer("POST", "/2.0/folders", 201, { type: "folder", id: "12", name: "Notices" })).toEqual([]);
    expect(await checkAnswer("POST", "/2.0/folders", 201, { type: "folder", id: 12, name: "Notices" })).not.toEqual([]);
  });
});
