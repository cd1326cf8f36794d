import { createHash, randomBytes, randomUUID } from "node:crypto";

export const newId = (): string => randomUUID();

/** An unguessable token for the user and its SHA-256 for the database. */
export function newSecretToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: sha256(token) };
}

export const sha256 = (value: string): string => createHash("sha256").update(value).digest("hex");
