import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export interface Secrets {
  sessionSecret: string;
  tokenSigningKey: string;
}

/**
 * Keys generated once per installation and kept in the data folder (0600). Several machines
 * share them through ECFX_SESSION_SECRET / ECFX_TOKEN_SIGNING_KEY instead.
 */
export function loadOrCreateSecrets(dataDir: string, env: Record<string, string | undefined> = process.env): Secrets {
  const file = path.join(dataDir, "secrets.json");
  let stored: Partial<Secrets> = {};
  if (fs.existsSync(file)) {
    stored = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Secrets>;
  }
  if (!stored.sessionSecret || !stored.tokenSigningKey) {
    stored = {
      sessionSecret: stored.sessionSecret ?? randomBytes(32).toString("base64url"),
      tokenSigningKey: stored.tokenSigningKey ?? randomBytes(32).toString("base64url"),
    };
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    fs.chmodSync(file, 0o600);
  }
  return {
    sessionSecret: env.ECFX_SESSION_SECRET || stored.sessionSecret!,
    tokenSigningKey: env.ECFX_TOKEN_SIGNING_KEY || stored.tokenSigningKey!,
  };
}
