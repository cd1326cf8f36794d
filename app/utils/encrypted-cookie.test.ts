import { decodeProtectedHeader } from "jose";
import { describe, expect, it, vi } from "vitest";
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

  it("opens a cookie once: the same cookie again is answered from what it opened to, as a fresh object", async () => {
    const sealer = sealerFor([NEW]);
    const sealed = await sealer.encrypt({ user: { email: "a@b.test" } });
    const tampered = `${sealed.slice(0, -2)}AA`;
    const decrypt = vi.spyOn(globalThis.crypto.subtle, "decrypt");
    try {
      const first = await sealer.decrypt<{ user: { email: string } }>(sealed);
      const second = await sealer.decrypt<{ user: { email: string } }>(sealed);
      expect(second).toEqual({ user: { email: "a@b.test" } });
      expect(second).not.toBe(first);
      first!.user.email = "changed@b.test";
      expect(await sealer.decrypt(sealed)).toEqual({ user: { email: "a@b.test" } });
      expect(await sealer.decrypt(tampered)).toBeNull();
      expect(await sealer.decrypt(tampered)).toBeNull();
      expect(decrypt).toHaveBeenCalledTimes(2);
      // Another sealer (a rotated secret) opens for itself.
      expect(await sealerFor([OLD]).decrypt(sealed)).toBeNull();
    } finally {
      decrypt.mockRestore();
    }
  });
});
