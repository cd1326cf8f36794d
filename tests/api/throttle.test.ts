import { describe, expect, it } from "vitest";
import { DEMO, DEMO_PASSWORD, api, backends, login, testClock, useApi } from "./harness";

const LOCKED = /^Too many sign-in attempts\. Try again in (\d+) minutes\.$/;

// The API trusts 127.0.0.1 as a proxy, so X-Forwarded-For gives each test its own client address.
const from = (address: string) => ({ "x-forwarded-for": address });

const attempt = (url: string, email: string, password: string, address: string) => api(url).post("/auth/login", { username: email, password }, from(address));

describe.each(backends)("sign-in throttling per account (%s)", (backend) => {
  const clock = testClock();
  const server = useApi({ backend, clock, env: { ECFX_LOGIN_MAX_FAILURES: "3", ECFX_LOGIN_LOCK_MINUTES: "15" } });

  it("locks an account after the failures limit, even for the right password", async () => {
    const url = server().url;
    for (let i = 0; i < 3; i++) expect((await attempt(url, DEMO.admin, "wrong-password", "10.0.0.1")).status).toBe(401);
    const locked = await attempt(url, DEMO.admin, DEMO_PASSWORD, "10.0.0.1");
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(LOCKED);
    expect(Number(locked.body.message.match(LOCKED)[1])).toBe(15);
    const retryAfter = Number(locked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // The lock is on the account, wherever the next attempt comes from.
    expect((await attempt(url, DEMO.admin, DEMO_PASSWORD, "10.0.0.2")).status).toBe(429);
  });

  it("lets another account sign in from the same address below the address limit", async () => {
    const url = server().url;
    for (let i = 0; i < 3; i++) await attempt(url, DEMO.manager, "wrong-password", "10.0.1.1");
    expect((await attempt(url, DEMO.manager, DEMO_PASSWORD, "10.0.1.1")).status).toBe(429);
    expect((await attempt(url, DEMO.viewOnly, DEMO_PASSWORD, "10.0.1.1")).status).toBe(200);
  });

  it("counts failures of unknown accounts too", async () => {
    const url = server().url;
    for (let i = 0; i < 3; i++) expect((await attempt(url, "ghost@demo.ecfx.test", "whatever1", "10.0.2.1")).status).toBe(401);
    expect((await attempt(url, "ghost@demo.ecfx.test", "whatever1", "10.0.2.1")).status).toBe(429);
  });

  it("clears an account's failures on a successful sign-in", async () => {
    const url = server().url;
    for (let i = 0; i < 2; i++) await attempt(url, DEMO.docketing, "wrong-password", "10.0.3.1");
    expect((await attempt(url, DEMO.docketing, DEMO_PASSWORD, "10.0.3.1")).status).toBe(200);
    for (let i = 0; i < 2; i++) await attempt(url, DEMO.docketing, "wrong-password", "10.0.3.1");
    expect((await attempt(url, DEMO.docketing, DEMO_PASSWORD, "10.0.3.1")).status).toBe(200);
  });

  it("opens the account again once the lock window has passed", async () => {
    const url = server().url;
    for (let i = 0; i < 3; i++) await attempt(url, DEMO.secondAdmin, "wrong-password", "10.0.4.1");
    expect((await attempt(url, DEMO.secondAdmin, DEMO_PASSWORD, "10.0.4.1")).status).toBe(429);
    clock.advance(10 * 60_000);
    const stillLocked = await attempt(url, DEMO.secondAdmin, DEMO_PASSWORD, "10.0.4.1");
    expect(stillLocked.status).toBe(429);
    expect(stillLocked.body.message).toBe("Too many sign-in attempts. Try again in 5 minutes.");
    clock.advance(5 * 60_000 + 1_000);
    const session = await login(url, DEMO.secondAdmin, DEMO_PASSWORD, from("10.0.4.1"));
    expect(session.user.email).toBe(DEMO.secondAdmin);
  });
});

describe.each(backends)("sign-in throttling per address (%s)", (backend) => {
  const clock = testClock();
  const server = useApi({
    backend,
    clock,
    env: { ECFX_LOGIN_MAX_FAILURES: "24", ECFX_LOGIN_MAX_FAILURES_PER_ADDRESS: "4", ECFX_LOGIN_LOCK_MINUTES: "15" },
  });

  it("locks an address that fails across accounts, and only that address", async () => {
    const url = server().url;
    const accounts = [DEMO.admin, DEMO.manager, DEMO.viewOnly, DEMO.docketing];
    for (const email of accounts) expect((await attempt(url, email, "wrong-password", "10.1.0.1")).status).toBe(401);
    const locked = await attempt(url, DEMO.secondAdmin, DEMO_PASSWORD, "10.1.0.1");
    expect(locked.status).toBe(429);
    expect(locked.body.message).toMatch(LOCKED);
    expect(locked.headers.get("retry-after")).toBeTruthy();
    // The accounts themselves are below their own limit: from elsewhere they sign in.
    expect((await attempt(url, DEMO.admin, DEMO_PASSWORD, "10.1.0.2")).status).toBe(200);

    clock.advance(15 * 60_000 + 1_000);
    expect((await attempt(url, DEMO.secondAdmin, DEMO_PASSWORD, "10.1.0.1")).status).toBe(200);
  });

  it("counts every one of many simultaneous failures of an account", async () => {
    const url = server().url;
    const account = "parallel@demo.ecfx.test";
    // Each from an address of its own, below the address limit: whatever order the checks and the
    // counts take, no attempt meets the account's limit of 24 before its own failure is counted.
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => attempt(url, account, "wrong-password", `10.2.0.${i}`)));
    expect(results.map((r) => r.status)).toEqual(Array(24).fill(401));
    expect((await attempt(url, account, "wrong-password", "10.2.1.1")).status).toBe(429);
  });
});

describe.each(backends)("password-reset requests throttled as sign-in is (%s)", (backend) => {
  const clock = testClock();
  const server = useApi({
    backend,
    clock,
    env: { ECFX_LOGIN_MAX_FAILURES: "3", ECFX_LOGIN_MAX_FAILURES_PER_ADDRESS: "5", ECFX_LOGIN_LOCK_MINUTES: "15" },
  });
  const forgot = (email: string, address: string) => api(server().url).post("/auth/password-forgot", { email }, from(address));
  const REFUSED = /^Too many password reset requests\. Try again in (\d+) minutes\.$/;

  it("refuses a client probing for addresses beyond the per-address limit, and only that client", async () => {
    for (let i = 0; i < 5; i++) expect((await forgot(`nobody-${i}@demo.ecfx.test`, "10.3.0.1")).status).toBe(404);
    for (const email of ["nobody-5@demo.ecfx.test", DEMO.manager]) {
      const refused = await forgot(email, "10.3.0.1");
      expect(refused.status).toBe(429);
      expect(Number(refused.body.message.match(REFUSED)?.[1])).toBe(15);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    }
    // Another client asks as before: the spec's answers.
    const other = await forgot("nobody-5@demo.ecfx.test", "10.3.0.2");
    expect([other.status, other.body.message]).toEqual([404, "Email doesn't exist"]);
    expect((await forgot(DEMO.manager, "10.3.0.2")).status).toBe(202);

    clock.advance(15 * 60_000 + 1_000);
    expect((await forgot("nobody-5@demo.ecfx.test", "10.3.0.1")).status).toBe(404);
  });

  it("refuses requests for one address beyond the per-account limit, from whichever client", async () => {
    for (let i = 0; i < 3; i++) expect((await forgot("ghost@demo.ecfx.test", `10.3.1.${i}`)).status).toBe(404);
    const refused = await forgot("ghost@demo.ecfx.test", "10.3.1.9");
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(REFUSED);
    // Another address from the same clients is still answered.
    expect((await forgot(DEMO.viewOnly, "10.3.1.0")).status).toBe(202);
  });
});
