import { createHash, hkdfSync } from "node:crypto";
import { CompactEncrypt, compactDecrypt, errors } from "jose";
import { keptResults } from "../common/kept-results";
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

// A browser sends the same cookie with every page, and opening it is a WebCrypto job on the thread
// pool (about half a millisecond of a page's CPU, before the page can ask the API anything): what
// each sealed value opened to is kept, per sealer, so a retired secret's keys go with it. Opening
// is deterministic, so a value that did not open is kept as such; a value longer than a browser
// keeps a cookie (4,096 bytes) is opened every time, so the kept values stay small.
const KEPT_OPENED = 500;
const LONGEST_KEPT = 4_096;

/** Seals with the first of these secrets and opens with any of them. */
export function sealerFor(secrets: string[]): Sealer {
  const keys = secrets.map(deriveKey);
  if (keys.length === 0) throw new Error("no session secret");
  const opened = keptResults<Promise<string | null>>(KEPT_OPENED, LONGEST_KEPT);
  const open = async (sealed: string): Promise<string | null> => {
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
      const text = new TextDecoder().decode(plaintext);
      JSON.parse(text);
      return text;
    } catch {
      // Tampered, sealed with a retired secret, or not ours at all: no session.
      return null;
    }
  };
  return {
    async encrypt(value) {
      const { kid, key } = keys[0]!;
      return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(value))).setProtectedHeader({ alg: "dir", enc: "A256GCM", kid }).encrypt(key);
    },
    async decrypt<T>(sealed: string) {
      const text = await opened(sealed, () => open(sealed));
      // Parsed for each caller: the session it makes is theirs to change.
      return text === null ? null : (JSON.parse(text) as T);
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
