import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { emailField, passwordField, requiredText } from "../../../app/common/validation";
import { dummyHash, hashPassword, verifyPassword } from "../../auth/password";
import { sendPasswordResetMail } from "../../notify/password-reset-mail";
import { clearFailures, countAttempt, refuseWhileLocked, type ThrottleKey } from "../../auth/throttle";
import { issueTokens, revokeAllSessions, rotateRefreshToken, sessionOfRefreshToken, verifyAccessToken } from "../../auth/tokens";
import { passwordRefused, ssoLogoutUrl, ssoSessionOf } from "../../sso/sso-sessions";
import { userRoleMap } from "../../auth/permissions";
import { reportsPageViews } from "../../analytics/analytics";
import { productPartsOf } from "../../firm/product-parts";
import { findFirmForHost, implicitHostNames } from "../../firm/firm-repository";
import type { ServerContext } from "../../context";
import { message } from "../../lib/messages";
import { newSecretToken, sha256 } from "../../lib/ids";
import { authenticate, bearerToken } from "../../auth/caller";
import { HttpError, forbidden, invalid } from "../../lib/errors";
import { readBody, sendProtobuf, wantsProtobuf } from "../protobuf-body";

// `host`: the console's host name the user signs in on, which leads to one firm (decision 090).
const loginBody = z.object({ username: emailField(), password: requiredText(), host: z.string().max(255).optional() });
const refreshBody = z.object({ grant_type: z.literal("refresh_token"), refresh_token: requiredText() });
const changePasswordBody = z.object({ currentPassword: requiredText(), newPassword: passwordField() });
const forgotBody = z.object({ email: emailField() });
const resetBody = z.object({ token: requiredText(), password: passwordField() });

const RESET_TTL_MS = 60 * 60 * 1000;
const MAX_RESETS_PER_HOUR = 5;

export function authRoutes(app: FastifyInstance, ctx: ServerContext) {
  const db = ctx.database.db;

  app.post("/auth/login", async (request, reply) => {
    const body = loginBody.parse(request.body ?? {});
    const keys: ThrottleKey[] = [
      { kind: "account", value: body.username },
      { kind: "address", value: request.ip },
    ];
    await refuseWhileLocked(ctx, keys, "errors:tooManyAttempts");
    const user = await db.selectFrom("app_user").selectAll().where("email", "=", body.username).executeTakeFirst();
    const ok = await verifyPassword(body.password, user?.password_hash ?? (await dummyHash()));
    // A user the firm's identity provider deactivated (SCIM) signs in no more, told no more than anyone.
    const deactivated =
      user && ok && (await db.selectFrom("scim_user").select("user_id").where("user_id", "=", user.id).where("active", "=", 0).executeTakeFirst());
    // On a firm's host only that firm's users sign in; another firm's user reads what a wrong
    // password reads, so the sign-in page says nothing of who has an account elsewhere.
    const hostFirm = body.host ? await findFirmForHost(ctx.database, body.host, implicitHostNames(ctx.config.publicUrl)) : undefined;
    if (!user || !ok || deactivated || (hostFirm && hostFirm.id !== user.firm_id)) {
      await countAttempt(ctx, keys);
      throw new HttpError(401, message("errors:loginFailed"));
    }
    await clearFailures(ctx, keys[0]!);
    // A firm that signs in through its identity provider takes no password, but from the one
    // administrator it named to get in when the provider is down (decision 099).
    if (await passwordRefused(ctx, user)) throw new HttpError(403, message("errors:sso.passwordRefused"));
    const tokens = await issueTokens(ctx, user);
    return reply.send({
      user: { id: user.id, email: user.email, fullName: user.full_name, securityRoleId: user.security_role_id, firmId: user.firm_id },
      ...tokens,
    });
  });

  app.post("/oauth/access_token", async (request, reply) => {
    const parsed = refreshBody.safeParse(request.body ?? {});
    if (!parsed.success) return reply.status(400).send({ error: "invalid_request", message: message("errors:unauthorized") });
    const outcome = await rotateRefreshToken(ctx, parsed.data.refresh_token);
    if (!outcome.ok) return reply.status(400).send({ error: "invalid_grant", reason: outcome.reason, message: message("errors:sessionExpired") });
    return reply.send({ ...outcome.tokens, token_type: "Bearer" });
  });

  // Signing out ends every session of the user at once: a copied cookie or a token taken from
  // another machine stops working too, access tokens included (their version is bumped).
  // A single sign-on session's logout then goes on at the identity provider (`redirect`).
  app.post("/auth/logout", async (request, reply) => {
    const token = (request.body as { refresh_token?: unknown } | undefined)?.refresh_token;
    const bearer = bearerToken(request);
    const claims = bearer ? await verifyAccessToken(ctx, bearer) : null;
    const fromRefresh = typeof token === "string" && token ? await sessionOfRefreshToken(ctx, token) : undefined;
    const userId = fromRefresh?.userId ?? claims?.userId;
    const ssoSessionId = fromRefresh?.ssoSessionId ?? claims?.ssoSessionId;
    const redirect = ssoSessionId ? await ssoLogoutUrl(ctx, ssoSessionId) : null;
    if (userId) await revokeAllSessions(ctx, userId);
    return redirect ? reply.send({ redirect }) : reply.status(204).send();
  });

  // With the host the browser reached, the answer also carries what every console page needs
  // besides: the product parts the firm has, and whether page views are reported there.
  app.get<{ Querystring: { host?: string } }>("/auth/me", async (request) => {
    const caller = await authenticate(ctx, request);
    const host = typeof request.query.host === "string" && request.query.host !== "" ? request.query.host.slice(0, 255) : undefined;
    const [user, parts, analytics] = await Promise.all([
      db.selectFrom("app_user").selectAll().where("id", "=", caller.userId).executeTakeFirstOrThrow(),
      host ? productPartsOf(ctx, caller.firmId) : undefined,
      host ? reportsPageViews(ctx, host, caller.userId) : undefined,
    ]);
    // Signed in through the firm's identity provider: the session it vouched for (spec §7).
    const sso = caller.ssoSessionId ? await ssoSessionOf(ctx, caller.ssoSessionId) : undefined;
    return {
      ...(host ? { parts: parts ?? [], analytics } : {}),
      ...(sso ? { sso } : {}),
      id: user.id,
      email: user.email,
      fullName: user.full_name,
      displayName: user.display_name,
      timekeeperId: user.timekeeper_id,
      securityRoleId: user.security_role_id,
      firmId: user.firm_id,
      roleName: caller.roleName,
      isAdmin: caller.isAdmin,
      userRole: userRoleMap(caller.permissions),
      dictionaryVersion: caller.dictionaryVersion,
    };
  });

  app.get("/api/v1/ping", async (request) => {
    await authenticate(ctx, request);
    return { ok: true, time: ctx.clock.now() };
  });

  app.put<{ Params: { id: string } }>("/auth/:id/change-password", async (request, reply) => {
    const caller = await authenticate(ctx, request);
    if (request.params.id !== caller.userId) throw forbidden();
    const body = changePasswordBody.parse(readBody(request, "ChangePassword"));
    const user = await db.selectFrom("app_user").selectAll().where("id", "=", caller.userId).executeTakeFirstOrThrow();
    if (!(await verifyPassword(body.currentPassword, user.password_hash))) {
      throw invalid({ currentPassword: ["errors:currentPasswordWrong"] }, message("errors:currentPasswordWrong"));
    }
    await db
      .updateTable("app_user")
      .set({ password_hash: await hashPassword(body.newPassword), updated_at: ctx.clock.now() })
      .where("id", "=", user.id)
      .execute();
    // Every other session ends; this one continues with a fresh pair.
    await revokeAllSessions(ctx, user.id);
    const tokens = await issueTokens(ctx, { ...user, token_version: user.token_version + 1 });
    return wantsProtobuf(request) ? sendProtobuf(reply, "TokenPair", { ...tokens }) : reply.send(tokens);
  });

  app.post("/auth/password-forgot", async (request, reply) => {
    const body = forgotBody.parse(request.body ?? {});
    // Each request tells whether an address has an account: counted per client and per address
    // as failed sign-ins are, whatever the answer.
    const keys: ThrottleKey[] = [
      { kind: "account", value: body.email, of: "reset" },
      { kind: "address", value: request.ip, of: "reset" },
    ];
    await refuseWhileLocked(ctx, keys, "errors:tooManyResetRequests");
    await countAttempt(ctx, keys);
    const user = await db.selectFrom("app_user").selectAll().where("email", "=", body.email).executeTakeFirst();
    if (!user) throw new HttpError(404, message("errors:emailDoesNotExist"));
    // Staff of a firm that signs in through its identity provider have no password here to reset:
    // no link is made or mailed, and the answer is the one a sent link gets, so it tells nobody
    // how the firm signs in or who its break-glass administrator is.
    if (await passwordRefused(ctx, user)) return reply.status(202).send({ ok: true });
    const now = ctx.clock.now();
    const recent = await db
      .selectFrom("password_reset")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", user.id)
      .where("created_at", ">", now - RESET_TTL_MS)
      .executeTakeFirstOrThrow();
    if (Number(recent.n) >= MAX_RESETS_PER_HOUR) throw new HttpError(429, message("errors:tooManyAttempts", { minutes: 60 }));
    const { token, hash } = newSecretToken();
    await db
      .insertInto("password_reset")
      .values({ token_hash: hash, user_id: user.id, firm_id: user.firm_id, expires_at: now + RESET_TTL_MS, used_at: null, created_at: now })
      .execute();
    await sendPasswordResetMail(ctx, user, token, now + RESET_TTL_MS);
    return reply.status(202).send({ ok: true });
  });

  app.post("/auth/password-reset", async (request, reply) => {
    const body = resetBody.parse(request.body ?? {});
    const now = ctx.clock.now();
    const hash = sha256(body.token);
    // Claimed with a conditional update so the same link can never be used twice.
    const claimed = await db
      .updateTable("password_reset")
      .set({ used_at: now })
      .where("token_hash", "=", hash)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw invalid({ token: ["errors:resetLinkInvalid"] }, message("errors:resetLinkInvalid"));
    const reset = await db.selectFrom("password_reset").select(["user_id", "firm_id"]).where("token_hash", "=", hash).executeTakeFirstOrThrow();
    // A link sent before the firm moved to single sign-on sets no password any more.
    if (await passwordRefused(ctx, { id: reset.user_id, firm_id: reset.firm_id }))
      throw invalid({ token: ["errors:resetLinkInvalid"] }, message("errors:resetLinkInvalid"));
    await db
      .updateTable("app_user")
      .set({ password_hash: await hashPassword(body.password), updated_at: now })
      .where("id", "=", reset.user_id)
      .execute();
    await revokeAllSessions(ctx, reset.user_id);
    return reply.send({ ok: true });
  });
}
