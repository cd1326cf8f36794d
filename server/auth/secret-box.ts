import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// Secrets the product keeps for a firm (a DMS password, an API key, an OAuth token) are sealed
// with AES-256-GCM under a key that never enters the database: a file in the data folder (0600)
// or ECFX_SECRET_KEYS when several machines share one database. Keys carry an id; the first key
// seals, every listed key opens, so a key is rotated by putting a new one first, re-sealing
// (`ecfx secrets rotate`) and dropping the old one later. Decision 052.

const PREFIX = "sb1";
const KEY_BYTES = 32;

export interface SecretKey {
  id: string;
  key: Buffer;
}

export class SecretBoxError extends Error {}

export class SecretBox {
  private keys: SecretKey[] = [];
  private byId = new Map<string, Buffer>();
  /**
   * `reload` answers the keys again (the key file): a value sealed under a key this box does not
   * know, because `ecfx secrets rotate` added it after this process started, opens then.
   */
  constructor(
    keys: SecretKey[],
    private readonly reload?: () => SecretKey[],
  ) {
    this.use(keys);
  }

  private use(keys: SecretKey[]): void {
    if (keys.length === 0) throw new SecretBoxError("no secret key");
    for (const k of keys)
      if (k.key.length !== KEY_BYTES || !/^[A-Za-z0-9_-]+$/.test(k.id))
        throw new SecretBoxError(`secret key ${k.id} is not a ${KEY_BYTES}-byte key with a plain id`);
    this.keys = keys;
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  private keyFor(id: string): Buffer | undefined {
    if (!this.byId.has(id) && this.reload) this.use(this.reload());
    return this.byId.get(id);
  }

  /** The id of the key that seals. */
  get currentKeyId(): string {
    return this.keys[0]!.id;
  }

  /** The ids of every key that opens, the sealing one first. */
  get keyIds(): string[] {
    return this.keys.map((k) => k.id);
  }

  seal(plain: string): string {
    const { id, key } = this.keys[0]!;
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    cipher.setAAD(Buffer.from(`${PREFIX}.${id}`));
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return [PREFIX, id, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
  }

  open(sealed: string): string {
    const [prefix, id, iv, tag, body] = sealed.split(".");
    if (prefix !== PREFIX || !id || iv === undefined || tag === undefined || body === undefined) throw new SecretBoxError("not a sealed secret");
    const key = this.keyFor(id);
    if (!key) throw new SecretBoxError(`the key ${id} that sealed this secret is not configured`);
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(`${PREFIX}.${id}`));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
    } catch (error) {
      throw new SecretBoxError("a sealed secret did not open: tampered or sealed under another key", { cause: error });
    }
  }

  /** A stored secret as typed: opened when sealed; one stored before secrets were sealed is as it was (`ecfx secrets rotate` seals it). */
  reveal(stored: string): string {
    return this.isSealed(stored) ? this.open(stored) : stored;
  }

  isSealed(value: string): boolean {
    return value.startsWith(`${PREFIX}.`);
  }

  /** Whether the value is sealed under a key other than the current one (re-seal it). */
  needsResealing(value: string): boolean {
    return !this.isSealed(value) || value.split(".")[1] !== this.currentKeyId;
  }
}

/** The id of the key a sealed value names (undefined when the value is not sealed); the key may be gone. */
export function sealedKeyId(value: string): string | undefined {
  const [prefix, id] = value.split(".", 2);
  return prefix === PREFIX && id ? id : undefined;
}

/** "id:base64key,id2:base64key2" (first seals). */
export function parseSecretKeys(text: string): SecretKey[] {
  return text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const at = entry.indexOf(":");
      if (at <= 0) throw new SecretBoxError("ECFX_SECRET_KEYS entries are id:base64key");
      return { id: entry.slice(0, at), key: Buffer.from(entry.slice(at + 1), "base64") };
    });
}

const keyFile = (dataDir: string) => path.join(dataDir, "secret-keys.json");

function readKeyFile(dataDir: string): SecretKey[] {
  const stored = JSON.parse(fs.readFileSync(keyFile(dataDir), "utf8")) as { id: string; key: string }[];
  return stored.map((k) => ({ id: k.id, key: Buffer.from(k.key, "base64") }));
}

function writeKeyFile(dataDir: string, keys: SecretKey[]): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = keyFile(dataDir);
  const text = JSON.stringify(
    keys.map((k) => ({ id: k.id, key: k.key.toString("base64") })),
    null,
    2,
  );
  fs.writeFileSync(`${file}.tmp`, text, { mode: 0o600 });
  fs.renameSync(`${file}.tmp`, file);
  fs.chmodSync(file, 0o600);
}

export function newSecretKey(now: number = Date.now()): SecretKey {
  return { id: `k${now.toString(36)}${randomBytes(3).toString("hex")}`, key: randomBytes(KEY_BYTES) };
}

/** The installation's keys: ECFX_SECRET_KEYS when set, else the data folder's key file, made on first use. */
export function loadSecretBox(dataDir: string, env: Record<string, string | undefined> = process.env): SecretBox {
  if (env.ECFX_SECRET_KEYS) return new SecretBox(parseSecretKeys(env.ECFX_SECRET_KEYS));
  const file = keyFile(dataDir);
  // The file is read again when a value names a key added since (`ecfx secrets rotate`).
  if (fs.existsSync(file)) return new SecretBox(readKeyFile(dataDir), () => readKeyFile(dataDir));
  // Several processes may start at once: the first file linked into place wins, the others read it.
  const keys = [newSecretKey()];
  const tmp = `${file}.${process.pid}.tmp`;
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(tmp, JSON.stringify(keys.map((k) => ({ id: k.id, key: k.key.toString("base64") }))), { mode: 0o600 });
  try {
    fs.linkSync(tmp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.unlinkSync(tmp);
  }
  return loadSecretBox(dataDir, env);
}

/** Puts a new key first in the data folder's key file (the old ones still open); answers the new box. */
export function addSecretKey(dataDir: string, now: number = Date.now()): SecretBox {
  const current = fs.existsSync(keyFile(dataDir)) ? readKeyFile(dataDir) : [];
  const keys = [newSecretKey(now), ...current];
  writeKeyFile(dataDir, keys);
  return new SecretBox(keys, () => readKeyFile(dataDir));
}
