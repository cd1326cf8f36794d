import { describe, expect, it } from "vitest";
import { fileSystemRootFor } from "./dms-targets";

describe("fileSystemRootFor", () => {
  it("puts the credential's folder inside the storage root", () => {
    expect(fileSystemRootFor("/srv/dms", "firm-a")).toBe("/srv/dms/firm-a");
    expect(fileSystemRootFor("/srv/dms", "/firm-a/notices/")).toBe("/srv/dms/firm-a/notices");
    expect(fileSystemRootFor("/srv/dms", "a/../b")).toBe("/srv/dms/b");
  });

  it("refuses a folder that leads outside it", () => {
    for (const field of ["..", "../other", "a/../../x", "  "]) expect(() => fileSystemRootFor("/srv/dms", field)).toThrow(/outside the firm's storage root/);
  });
});
