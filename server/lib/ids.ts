import { createHash, randomBytes, randomUUID } from "node:crypto";

export const newId = (): string => randomUUID();

/** An unguessable token for the user and its SHA-256 for the database. */
export function newSecretToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: sha256(token) };
}

export const sha256 = (value: string): string => createHash("sha256").update(value).digest("hex");

/** An id in the form of newId's that `name` always gives: racing writers of one named row meet on its key. */
export function idOfName(name: string): string {
  const hex = sha256(name);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
