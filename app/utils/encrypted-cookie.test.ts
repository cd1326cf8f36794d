import { decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { sealerFor } from "./encrypted-cookie.server";

const OLD = "old-session-secret-0123456789";
const NEW = "new-session-secret-9876543210";

describe("session cookie sealing", () => {
  it("seals as a compact JWE that only the secret opens", async () => {
    const sealed = await sealerFor([NEW]).encrypt({ user: { email: "a@b.test" } });
    expect(sealed.split(".")).toHaveLength(5);
    expect(decodeProtectedHeader(sealed)).toMatchObject({ alg: "dir", enc: "A256GCM" });
    expect(sealed).not.toContain("a@b.test");
    expect(await sealerFor([NEW]).decrypt(sealed)).toEqual({ user: { email: "a@b.test" } });
    expect(await sealerFor([OLD]).decrypt(sealed)).toBeNull();
  });

  it("refuses a cookie altered in the browser", async () => {
    const sealed = await sealerFor([NEW]).encrypt({ role: "View Only" });
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3]!, "base64url");
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString("base64url");
    expect(await sealerFor([NEW]).decrypt(parts.join("."))).toBeNull();
    expect(await sealerFor([NEW]).decrypt("not a cookie")).toBeNull();
  });

  it("rotates: the first secret seals, every listed secret opens, a dropped secret no longer does", async () => {
    const before = await sealerFor([OLD]).encrypt({ n: 1 });
    const rotating = sealerFor([NEW, OLD]);
    expect(await rotating.decrypt(before)).toEqual({ n: 1 });
    const after = await rotating.encrypt({ n: 2 });
    expect(await sealerFor([NEW]).decrypt(after)).toEqual({ n: 2 });
    expect(await sealerFor([NEW]).decrypt(before)).toBeNull();
  });
});
