import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { Secrets } from "./secrets";

// A webhook's signing secret must be read back to sign each delivery, so it is kept sealed
// (AES-256-GCM), not hashed. The key is derived from the installation's token signing key, so no
// new secret has to be shared between machines.

const VERSION = "v1";

/** The sealing key of webhook secrets, derived once per installation key. */
export function webhookSecretKey(secrets: Pick<Secrets, "tokenSigningKey">): Buffer {
  return Buffer.from(hkdfSync("sha256", secrets.tokenSigningKey, "ecfx-webhook-secret", "webhook secret sealing v1", 32));
}

/** A new signing secret: 32 random bytes, the text a receiver pastes into its configuration. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** "v1.<iv>.<tag>.<ciphertext>", base64url parts. */
export function sealWebhookSecret(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), sealed].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

/** The secret sealed by sealWebhookSecret; throws when the text was changed or another key sealed it. */
export function openWebhookSecret(sealed: string, key: Buffer): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error("not a sealed webhook secret");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
