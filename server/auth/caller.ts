import { createHash } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { AccessLevel } from "../../app/common/access";
import { allows } from "../../app/common/access";
import { type RolePermissions, defaultRolePermissions, fieldAccess, isAdminRole, parsePermissions, resourceAccess } from "./permissions";
import { verifyAccessToken } from "./tokens";
import type { ServerContext } from "../context";
import { forbidden, unauthorized } from "../lib/errors";
import { speakFirmWords } from "../db/firm-words";

/** Who is calling: the user, their firm (which scopes every query) and their role's grants. */
export interface Caller {
  userId: string;
  firmId: number;
  email: string;
  fullName: string;
  roleId: string;
  roleName: string;
  isAdmin: boolean;
  permissions: RolePermissions;
  /** The firm's dictionary version when the request was authenticated (0: the catalogue's own words). */
  dictionaryVersion: number;
  /**
   * Read with the user in one statement: the user's timekeeper while the firm's walls hold, else
   * null (read-scope.ts). Absent for a caller made otherwise: the scope is then read on its own.
   */
  wallTimekeeperId?: string | null;
  /** The single sign-on session the caller's sign-in started, if it was one (decision 099). */
  ssoSessionId?: string;
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith("Bearer ")) return undefined;
  return header.slice("Bearer ".length).trim() || undefined;
}

// The firm each authenticated request acted for, for what is recorded once it has been answered.
const firmOfRequest = new WeakMap<FastifyRequest, number>();

/** The firm of the caller this request authenticated as, if it did. */
export function callerFirmOf(request: FastifyRequest): number | undefined {
  return firmOfRequest.get(request);
}

// The caller's access as a short stamp (app/common/access-stamp.ts), for the answer's header.
const accessOfRequest = new WeakMap<FastifyRequest, string>();

/** The access stamp of the caller this request authenticated as, if it did. */
export function accessStampOf(request: FastifyRequest): string | undefined {
  return accessOfRequest.get(request);
}

function accessStamp(parts: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("base64url").slice(0, 16);
}

export async function authenticate(ctx: ServerContext, request: FastifyRequest): Promise<Caller> {
  const token = bearerToken(request);
  if (!token) throw unauthorized();
  const claims = await verifyAccessToken(ctx, token);
  if (!claims) throw unauthorized();
  const row = await ctx.database.db
    .selectFrom("app_user")
    .innerJoin("security_role", "security_role.id", "app_user.security_role_id")
    .innerJoin("firm", "firm.id", "app_user.firm_id")
    .select([
      "firm.dictionary_version",
      "app_user.id",
      "app_user.firm_id",
      "app_user.email",
      "app_user.full_name",
      "app_user.token_version",
      "security_role.id as role_id",
      "security_role.name as role_name",
      "security_role.is_system_defined",
      "security_role.permissions",
      "app_user.timekeeper_id",
      "firm.internal_walls_enabled",
    ])
    .where("app_user.id", "=", claims.userId)
    .executeTakeFirst();
  // A password change or sign-out-everywhere bumps the version and so ends older tokens.
  if (!row || row.firm_id !== claims.firmId || row.token_version !== claims.tokenVersion) throw unauthorized();
  firmOfRequest.set(request, row.firm_id);
  accessOfRequest.set(request, accessStamp([row.role_id, row.role_name, row.is_system_defined, row.permissions, Number(row.dictionary_version)]));
  // Errors and mail of this request speak the firm's words; the version came with the user row.
  await speakFirmWords(ctx.database, row.firm_id, Number(row.dictionary_version));
  return {
    userId: row.id,
    firmId: row.firm_id,
    email: row.email,
    fullName: row.full_name,
    roleId: row.role_id,
    roleName: row.role_name,
    isAdmin: isAdminRole({ name: row.role_name, is_system_defined: row.is_system_defined }),
    permissions: parsePermissions(row.permissions),
    dictionaryVersion: Number(row.dictionary_version),
    wallTimekeeperId: row.internal_walls_enabled ? row.timekeeper_id : null,
    ...(claims.ssoSessionId ? { ssoSessionId: claims.ssoSessionId } : {}),
  };
}

export function levelOf(caller: Caller, resource: string): AccessLevel {
  return resourceAccess(caller.permissions, resource);
}

export function requireAccess(caller: Caller, resource: string, needed: "read" | "write"): void {
  if (!allows(levelOf(caller, resource), needed)) throw forbidden();
}

export function fieldLevel(caller: Caller, resource: string, field: string): AccessLevel {
  return fieldAccess(caller.permissions, resource, field);
}

/** A row less the fields the caller's role may not read (DENY): what the generic read leaves out. */
export function readableFields<T extends object>(caller: Caller, resource: string, row: T): Partial<T> {
  return Object.fromEntries(Object.entries(row).filter(([field]) => fieldLevel(caller, resource, field) !== "DENY")) as Partial<T>;
}

/** The product acting on a firm's data by itself (the pipeline creating a case): every grant, no person. */
export function productCaller(firmId: number): Caller {
  return {
    userId: "",
    firmId,
    email: "",
    fullName: "ECFX",
    roleId: "",
    roleName: "Administrator",
    isAdmin: true,
    permissions: defaultRolePermissions("Administrator"),
    dictionaryVersion: 0,
  };
}
