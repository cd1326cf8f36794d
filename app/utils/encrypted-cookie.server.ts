import { createHash, hkdfSync } from "node:crypto";
import { CompactEncrypt, compactDecrypt, errors } from "jose";
import { consoleEnv, sessionSecrets } from "./env.server";

// The session cookie is a compact JWE (direct A256GCM, jose): unreadable and tamper-proof in the
// browser, so tokens can ride in it without a server-side session store shared between console
// processes. ECFX_SESSION_SECRET may list several secrets separated by commas: the first seals,
// every one opens, so a secret can be rotated without signing everybody out at once.

interface SealingKey {
  kid: string;
  key: Uint8Array;
}

export interface Sealer {
  encrypt(value: unknown): Promise<string>;
  decrypt<T>(sealed: string): Promise<T | null>;
}

function deriveKey(secret: string): SealingKey {
  const key = new Uint8Array(hkdfSync("sha256", secret, "ecfx", "ecfx-session-cookie", 32));
  // The key id names the key without revealing it, so opening needs no trial and error.
  const kid = createHash("sha256").update(key).digest("base64url").slice(0, 12);
  return { kid, key };
}

/** Seals with the first of these secrets and opens with any of them. */
export function sealerFor(secrets: string[]): Sealer {
  const keys = secrets.map(deriveKey);
  if (keys.length === 0) throw new Error("no session secret");
  return {
    async encrypt(value) {
      const { kid, key } = keys[0]!;
      return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(value))).setProtectedHeader({ alg: "dir", enc: "A256GCM", kid }).encrypt(key);
    },
    async decrypt<T>(sealed: string) {
      try {
        const { plaintext } = await compactDecrypt(
          sealed,
          (header) => {
            const match = keys.find((k) => k.kid === header.kid);
            if (!match) throw new errors.JWEDecryptionFailed();
            return match.key;
          },
          { keyManagementAlgorithms: ["dir"], contentEncryptionAlgorithms: ["A256GCM"] },
        );
        return JSON.parse(new TextDecoder().decode(plaintext)) as T;
      } catch {
        // Tampered, sealed with a retired secret, or not ours at all: no session.
        return null;
      }
    },
  };
}

const sealers = new Map<string, Sealer>();

function sealer(): Sealer {
  const value = consoleEnv().ECFX_SESSION_SECRET;
  let found = sealers.get(value);
  if (!found) {
    found = sealerFor(sessionSecrets(value));
    sealers.set(value, found);
  }
  return found;
}

export const encrypt = (value: unknown): Promise<string> => sealer().encrypt(value);
export const decrypt = <T>(sealed: string): Promise<T | null> => sealer().decrypt<T>(sealed);
