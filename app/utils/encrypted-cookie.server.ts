import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { consoleEnv } from "./env.server";

// AES-256-GCM: the cookie's content is unreadable and tamper-proof in the browser, so tokens
// can ride in it without any server-side session store shared between console processes.
function key(): Buffer {
  return createHash("sha256").update(`ecfx-session:${consoleEnv().ECFX_SESSION_SECRET}`).digest();
}

export function encrypt(value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

export function decrypt<T>(sealed: string): T | null {
  try {
    const raw = Buffer.from(sealed, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    return JSON.parse(plain) as T;
  } catch {
    return null;
  }
}
