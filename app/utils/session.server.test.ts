import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type AuthSession, readSession, writeSession } from "./session.server";

const AUTH: AuthSession = {
  userId: "u-1",
  email: "clerk@firm.test",
  fullName: "Docket Clerk",
  securityRoleId: "r-1",
  firmId: 7,
  authToken: "access",
  refreshToken: "refresh",
  expirationTime: 1_900_000_000_000,
};

const pageWith = (cookieHeader: string) => new Request("https://console.firm.test/cases", { headers: { cookie: cookieHeader } });
const sessionCookie = async () => (await writeSession(new Request("https://console.firm.test/login"), AUTH)).split(";")[0]!;

describe("reading the session cookie", () => {
  beforeAll(() => {
    process.env.ECFX_SESSION_SECRET ??= "session-secret-for-the-unit-tests";
  });
  afterEach(() => vi.restoreAllMocks());

  it("decodes a Cookie header once: the same header again gives the same session, as a fresh object", async () => {
    const header = `ecfx_theme=dark; ${await sessionCookie()}; ecfx_other=1`;
    const decode = vi.spyOn(globalThis, "atob");
    const first = await readSession(pageWith(header));
    expect(first).toEqual(AUTH);
    expect(decode).toHaveBeenCalled();
    decode.mockClear();
    const second = await readSession(pageWith(header));
    expect(second).toEqual(AUTH);
    expect(second).not.toBe(first);
    expect(decode).not.toHaveBeenCalled();
    first!.email = "changed@firm.test";
    expect((await readSession(pageWith(header)))!.email).toBe(AUTH.email);
  });

  it("still refuses a cookie altered in the browser, and reads none from a header without it", async () => {
    const good = await sessionCookie();
    const [name, value] = good.split("=") as [string, string];
    const altered = `${name}=${value.slice(0, -4)}${value.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
    expect(await readSession(pageWith(altered))).toBeNull();
    expect(await readSession(pageWith(altered))).toBeNull();
    expect(await readSession(pageWith("ecfx_theme=dark"))).toBeNull();
    expect(await readSession(new Request("https://console.firm.test/cases"))).toBeNull();
    expect(await readSession(pageWith(good))).toEqual(AUTH);
  });
});
