import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CONTENT_HASH_BLOCK, dropboxContentHash } from "../../../server/dms/dropbox/content-hash";
import { retryAfterMs } from "../../../server/dms/dropbox/dropbox-errors";
import { folderPath } from "../../../server/dms/dropbox/dropbox-folders";
import { filingFields } from "../../../server/dms/dropbox/dropbox-properties";
import { DROPBOX_DEFAULT_BASE_URL, dropboxHosts } from "../../../server/dms/dropbox/dropbox-hosts";
import { MAX_NAME_LENGTH, collisionKey, dropboxFileName, dropboxSegment } from "../../../server/dms/dropbox/dropbox-names";

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest();

describe("Dropbox names", () => {
  it("replaces the characters Dropbox refuses and drops trailing dots and spaces", () => {
    expect(dropboxSegment('a/b\\c:d?e*f"g<h>i|j')).toBe("a_b_c_d_e_f_g_h_i_j");
    expect(dropboxSegment("Motion. . ")).toBe("Motion");
    expect(dropboxSegment("tab\there")).toBe("tab_here");
  });

  it("never answers an empty name, '.' or '..'", () => {
    expect(dropboxSegment("")).toBe("_");
    expect(dropboxSegment(".")).toBe("_");
    expect(dropboxSegment("..")).toBe("_");
    expect(dropboxSegment("  ")).toBe("_");
  });

  it("numbers copies and keeps every name within 255 characters, extension and number included", () => {
    expect(dropboxFileName("Order", "pdf")).toBe("Order.pdf");
    expect(dropboxFileName("Order", "pdf", 2)).toBe("Order (2).pdf");
    expect(dropboxFileName("Order", "")).toBe("Order");
    const long = dropboxFileName("x".repeat(400), "pdf", 12);
    expect(long).toHaveLength(MAX_NAME_LENGTH);
    expect(long.endsWith(" (12).pdf")).toBe(true);
  });

  it("never splits a character outside the basic plane when shortening", () => {
    const name = dropboxFileName("😀".repeat(300), "pdf");
    expect(Array.from(name)).toHaveLength(MAX_NAME_LENGTH);
    expect(name).not.toContain("\uFFFD");
    expect(name.endsWith("😀.pdf")).toBe(true);
  });

  it("keeps clear of the names Dropbox refuses to hold", () => {
    expect(dropboxFileName("desktop", "ini")).toBe("_desktop.ini");
    expect(dropboxFileName("Thumbs", "db")).toBe("_Thumbs.db");
    expect(dropboxFileName("desktop", "ini", 2)).toBe("desktop (2).ini");
  });

  it("compares names without regard to case", () => {
    expect(collisionKey("ORDER.PDF")).toBe(collisionKey("Order.pdf"));
  });

  it("builds folder paths below the root path, each segment a name Dropbox accepts", () => {
    expect(folderPath("/ECFX/", ["Smith: v Jones", "2026."])).toBe("/ECFX/Smith_ v Jones/2026");
    expect(folderPath("", ["Matters"])).toBe("/Matters");
    expect(folderPath("", [])).toBe("");
  });
});

describe("Dropbox content hash", () => {
  it("is the SHA-256 of the SHA-256 of each 4 MiB block", () => {
    expect(dropboxContentHash(Buffer.alloc(0))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const small = Buffer.from("court notice");
    expect(dropboxContentHash(small)).toBe(createHash("sha256").update(sha(small)).digest("hex"));
    const large = Buffer.alloc(CONTENT_HASH_BLOCK + 10, 7);
    const expected = createHash("sha256")
      .update(Buffer.concat([sha(large.subarray(0, CONTENT_HASH_BLOCK)), sha(large.subarray(CONTENT_HASH_BLOCK))]))
      .digest("hex");
    expect(dropboxContentHash(large)).toBe(expected);
    expect(dropboxContentHash(large)).not.toBe(createHash("sha256").update(large).digest("hex"));
  });
});

describe("Retry-After", () => {
  const now = Date.parse("2026-11-26T08:00:00Z");
  it("reads seconds, an HTTP date or the body's retry_after", () => {
    expect(retryAfterMs("30", null, now)).toBe(30_000);
    expect(retryAfterMs("Thu, 26 Nov 2026 08:00:45 GMT", null, now)).toBe(45_000);
    expect(retryAfterMs(null, { error: { retry_after: 3 } }, now)).toBe(3000);
    expect(retryAfterMs(null, {}, now)).toBeUndefined();
  });
});

describe("Dropbox hosts", () => {
  it("allows Dropbox's own hosts and leaves production URLs as they are", () => {
    const hosts = dropboxHosts(DROPBOX_DEFAULT_BASE_URL);
    expect(["api.dropboxapi.com", "content.dropboxapi.com", "api.dropbox.com"].every((host) => hosts.purpose.hostAllowed(host))).toBe(true);
    expect(hosts.purpose.hostAllowed("dropbox.example.com")).toBe(false);
    expect(hosts.map("https://content.dropboxapi.com/2/files/upload").href).toBe("https://content.dropboxapi.com/2/files/upload");
    expect(hosts.tokenUrl.href).toBe("https://api.dropbox.com/oauth2/token");
  });

  it("reaches every Dropbox host under a switched base URL, with the same paths", () => {
    const hosts = dropboxHosts("https://dropbox-proxy.example.net/");
    expect(hosts.map("https://content.dropboxapi.com/2/files/upload").href).toBe("https://dropbox-proxy.example.net/2/files/upload");
    expect(hosts.map("https://api.dropboxapi.com/2/files/get_metadata").href).toBe("https://dropbox-proxy.example.net/2/files/get_metadata");
    expect(hosts.tokenUrl.href).toBe("https://dropbox-proxy.example.net/oauth2/token");
    expect(hosts.purpose.hostAllowed("dropbox-proxy.example.net")).toBe(true);
    expect(hosts.purpose.hostAllowed("other.example.net")).toBe(false);
  });
});

describe("Dropbox properties", () => {
  it("puts the filing's key and hash first, then the policy's properties", () => {
    expect(filingFields("filing-1", "ab", { " court ": "S.D.N.Y.", "": "dropped", ecfx_sha256: "not this" })).toEqual([
      { name: "ecfx_idempotency_key", value: "filing-1" },
      { name: "ecfx_sha256", value: "ab" },
      { name: "court", value: "S.D.N.Y." },
    ]);
  });

  it("refuses what a Dropbox template cannot hold instead of cutting it", () => {
    expect(() => filingFields("k", "h", { note: "x".repeat(1025) })).toThrow("Dropbox keeps at most 1024 characters per property; note has 1025");
    const many = Object.fromEntries(Array.from({ length: 31 }, (_, index) => [`p${index}`, "v"]));
    expect(() => filingFields("k", "h", many)).toThrow("Dropbox keeps at most 30 document properties; the storage policy names 31");
  });
});
