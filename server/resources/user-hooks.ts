import { randomBytes } from "node:crypto";
import { hashPassword } from "../auth/password";
import { sendInvitationMail } from "../notify/password-reset-mail";
import { revokeAllSessions } from "../auth/tokens";
import type { ServerResource } from "./types";
import { authorizeUserWrite, keepAdministratorOnWrite } from "./user-guard";

/** A new user gets no usable password: an invitation mail lets them choose one. */
export const userHooks: NonNullable<ServerResource["hooks"]> = {
  authorizeWrite: authorizeUserWrite,
  insideWrite: keepAdministratorOnWrite,
  async beforeInsert(_ctx, _caller, row) {
    return { ...row, password_hash: await hashPassword(randomBytes(24).toString("base64url")), token_version: 0 };
  },
  async afterInsert(ctx, _caller, row) {
    await sendInvitationMail(ctx, String(row.id));
  },
  // A new role takes effect at once: the user's sessions end and the next sign-in carries it.
  async afterUpdate(ctx, _caller, before, values) {
    if (values.security_role_id !== undefined && values.security_role_id !== before.security_role_id) {
      await revokeAllSessions(ctx, String(before.id));
    }
  },
};
