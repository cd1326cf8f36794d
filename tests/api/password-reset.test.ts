import { describe, expect, it } from "vitest";
import { DEMO, DEMO_PASSWORD, type Session, api, backends, login, sessionsOf, testClock, useApi } from "./harness";

/** The reset token of the newest captured reset mail to this address, read as the firm admin. */
async function resetTokenFromOutbox(url: string, admin: Session, to: string): Promise<string> {
  const client = api(url, admin.access_token);
  const list = await client.get("/api/v1/outbox/search?max=100");
  expect(list.status).toBe(200);
  const entry = (list.body as { id: string; to_addresses: string[]; purpose: string }[]).find(
    (m) => m.purpose === "password-reset" && m.to_addresses.includes(to),
  );
  expect(entry, `a reset mail to ${to}`).toBeTruthy();
  const mail = await client.get(`/api/v1/outbox/${entry!.id}`);
  expect(mail.status).toBe(200);
  expect(mail.body).toMatchObject({ transport: "captured", status: "captured", to_addresses: [to] });
  const match = /\/password-reset\?token=([A-Za-z0-9_%-]+)/.exec(mail.body.text_body as string);
  expect(match, "a /password-reset?token= link in the text").toBeTruthy();
  expect(mail.body.html_body).toContain("/password-reset?token=");
  return decodeURIComponent(match![1]!);
}

describe.each(backends)("password forgot and reset (%s)", (backend) => {
  const clock = testClock();
  const server = useApi({ backend, clock });
  const sessionOf = sessionsOf(server, clock);

  it("answers an unknown address with 404 'Email doesn't exist'", async () => {
    const res = await api(server().url).post("/auth/password-forgot", { email: "nobody@demo.ecfx.test" });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Email doesn't exist");
  });

  it("answers an invalid address with 400", async () => {
    const res = await api(server().url).post("/auth/password-forgot", { email: "not an address" });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors.email).toEqual(["Enter a valid email address."]);
  });

  it("mails a reset link that sets a new password once, and ends earlier sessions", async () => {
    const url = server().url;
    const before = await login(url, DEMO.viewOnly);
    const forgot = await api(url).post("/auth/password-forgot", { email: DEMO.viewOnly });
    expect(forgot.status).toBe(202);
    const token = await resetTokenFromOutbox(url, await sessionOf(DEMO.admin), DEMO.viewOnly);

    const reset = await api(url).post("/auth/password-reset", { token, password: "Reset-Passw0rd" });
    expect(reset.status).toBe(200);
    expect((await login(url, DEMO.viewOnly, "Reset-Passw0rd")).user.email).toBe(DEMO.viewOnly);
    expect((await api(url).post("/auth/login", { username: DEMO.viewOnly, password: DEMO_PASSWORD })).status).toBe(401);
    expect((await api(url, before.access_token).get("/auth/me")).status).toBe(401);
    const refresh = await api(url).post("/oauth/access_token", { grant_type: "refresh_token", refresh_token: before.refresh_token });
    expect(refresh.status).toBe(400);

    const again = await api(url).post("/auth/password-reset", { token, password: "Another-Passw0rd" });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe("This password reset link is invalid or has expired. Ask for a new one.");
    expect((await login(url, DEMO.viewOnly, "Reset-Passw0rd")).user.email).toBe(DEMO.viewOnly);
  });

  it("refuses a short password without using up the link", async () => {
    const url = server().url;
    expect((await api(url).post("/auth/password-forgot", { email: DEMO.docketing })).status).toBe(202);
    const token = await resetTokenFromOutbox(url, await sessionOf(DEMO.admin), DEMO.docketing);
    const short = await api(url).post("/auth/password-reset", { token, password: "short" });
    expect(short.status).toBe(400);
    expect(short.body.fieldErrors.password).toEqual(["Password must be at least 8 characters long."]);
    expect((await api(url).post("/auth/password-reset", { token, password: "Docketing-Passw0rd" })).status).toBe(200);
  });

  it("refuses an unknown token", async () => {
    const res = await api(server().url).post("/auth/password-reset", { token: "not-a-token", password: "Whatever-Passw0rd" });
    expect(res.status).toBe(400);
    expect((await api(server().url).post("/auth/password-reset", {})).status).toBe(400);
  });

  it("refuses a link older than an hour", async () => {
    const url = server().url;
    expect((await api(url).post("/auth/password-forgot", { email: DEMO.manager })).status).toBe(202);
    const token = await resetTokenFromOutbox(url, await sessionOf(DEMO.admin), DEMO.manager);
    clock.advance(61 * 60_000);
    const res = await api(url).post("/auth/password-reset", { token, password: "Late-Passw0rd" });
    expect(res.status).toBe(400);
    expect((await login(url, DEMO.manager)).user.email).toBe(DEMO.manager);
  });

  it("mails the second firm's user into the second firm's outbox only", async () => {
    const url = server().url;
    expect((await api(url).post("/auth/password-forgot", { email: DEMO.secondAdmin })).status).toBe(202);
    const token = await resetTokenFromOutbox(url, await sessionOf(DEMO.secondAdmin), DEMO.secondAdmin);
    expect(token).toBeTruthy();
    const demoAdmin = await sessionOf(DEMO.admin);
    const demoOutbox = await api(url, demoAdmin.access_token).get("/api/v1/outbox/search?max=100");
    expect((demoOutbox.body as { to_addresses: string[] }[]).some((m) => m.to_addresses.includes(DEMO.secondAdmin))).toBe(false);
  });

  it("keeps captured mail from users without FULL firm access", async () => {
    const manager = await sessionOf(DEMO.manager);
    const res = await api(server().url, manager.access_token).get("/api/v1/outbox/search");
    expect(res.status).toBe(403);
  });
});

describe.each(backends)("password reset of a firm that signs in through its identity provider (%s)", (backend) => {
  const server = useApi({ backend });

  const resetMailsTo = async (url: string, admin: Session, to: string) => {
    const list = await api(url, admin.access_token).get("/api/v1/outbox/search?max=100");
    expect(list.status).toBe(200);
    return (list.body as { to_addresses: string[]; purpose: string }[]).filter((m) => m.purpose === "password-reset" && m.to_addresses.includes(to)).length;
  };

  it("makes and mails no link for staff, answers as for a sent one, and still serves the break-glass administrator", async () => {
    const url = server().url;
    // A link asked for while the firm still signed in with passwords.
    expect((await api(url).post("/auth/password-forgot", { email: DEMO.docketing })).status).toBe(202);
    const earlier = await resetTokenFromOutbox(url, await login(url, DEMO.admin), DEMO.docketing);
    const local = await api(url).post("/auth/password-forgot", { email: DEMO.viewOnly });

    const admin = api(url, (await login(url, DEMO.admin)).access_token);
    const saved = await admin.put("/api/v1/firm/sso", {
      oidc_issuer: "https://idp.example.test",
      oidc_client_id: "ecfx",
      oidc_client_secret: "a-secret",
      break_glass_email: DEMO.admin,
    });
    expect(saved.status, saved.text).toBe(200);
    const firm = (await admin.get("/api/v1/firm")).body;
    expect((await admin.put(`/api/v1/firm/${firm.id}`, { ...firm, signon_type: "oidc" })).status).toBe(200);
    const session = await login(url, DEMO.admin);

    const staff = await api(url).post("/auth/password-forgot", { email: DEMO.manager });
    expect(staff.status).toBe(local.status);
    expect(staff.body).toEqual(local.body);
    expect(await resetMailsTo(url, session, DEMO.manager)).toBe(0);
    // An address nobody has is answered as the specification says, as before.
    expect((await api(url).post("/auth/password-forgot", { email: "nobody@demo.ecfx.test" })).status).toBe(404);

    const breakGlass = await api(url).post("/auth/password-forgot", { email: DEMO.admin });
    expect(breakGlass.status).toBe(202);
    expect(await resetMailsTo(url, session, DEMO.admin)).toBe(1);

    // The link sent before the switch sets no password now.
    const late = await api(url).post("/auth/password-reset", { token: earlier, password: "Docketing-Passw0rd" });
    expect(late.status).toBe(400);
    expect(late.body.message).toBe("This password reset link is invalid or has expired. Ask for a new one.");
    expect((await api(url).post("/auth/login", { username: DEMO.docketing, password: "Docketing-Passw0rd" })).status).toBe(401);
    expect((await api(url).post("/auth/login", { username: DEMO.docketing, password: DEMO_PASSWORD })).status).toBe(403);
  });
});
