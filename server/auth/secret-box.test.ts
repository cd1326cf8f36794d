import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { SecretBox, SecretBoxError, addSecretKey, loadSecretBox, newSecretKey, parseSecretKeys, sealedKeyId } from "./secret-box";

// Secrets are sealed under keys kept outside the database; the first key seals, every key opens (decision 052).

const dirs: string[] = [];
const emptyDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-keys-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const keyText = (id: string, byte: number) => `${id}:${Buffer.alloc(32, byte).toString("base64")}`;

describe("a secret box", () => {
  it("opens what it sealed, and never shows the plain text in the sealed form", () => {
    const box = new SecretBox([newSecretKey()]);
    const sealed = box.seal("p@ssw0rd – ünïcode");
    expect(sealed).not.toContain("p@ssw0rd");
    expect(box.isSealed(sealed)).toBe(true);
    expect(sealedKeyId(sealed)).toBe(box.currentKeyId);
    expect(box.open(sealed)).toBe("p@ssw0rd – ünïcode");
    expect(box.seal("same")).not.toBe(box.seal("same"));
  });

  it("refuses a sealed value that was altered, or whose key id was swapped", () => {
    const box = new SecretBox(parseSecretKeys(`${keyText("a", 1)},${keyText("b", 2)}`));
    const sealed = box.seal("secret");
    const parts = sealed.split(".");
    const body = Buffer.from(parts[4]!, "base64url");
    body[0] = body[0]! ^ 1;
    expect(() => box.open([...parts.slice(0, 4), body.toString("base64url")].join("."))).toThrow(SecretBoxError);
    expect(() => box.open([parts[0], "b", ...parts.slice(2)].join("."))).toThrow(/did not open/);
    expect(() => box.open("plain text")).toThrow(/not a sealed secret/);
  });

  it("names the key it does not have", () => {
    const sealed = new SecretBox(parseSecretKeys(keyText("gone", 7))).seal("secret");
    expect(() => new SecretBox(parseSecretKeys(keyText("other", 8))).open(sealed)).toThrow("the key gone that sealed this secret is not configured");
  });

  it("seals with the first key and opens with any, so a new key put first rotates", () => {
    const dir = emptyDir();
    const before = loadSecretBox(dir, {});
    const old = before.seal("secret");
    const after = addSecretKey(dir, Date.now() + 1000);
    expect(after.keyIds).toEqual([after.currentKeyId, before.currentKeyId]);
    expect(after.currentKeyId).not.toBe(before.currentKeyId);
    expect(after.needsResealing(old)).toBe(true);
    expect(after.open(old)).toBe("secret");
    const fresh = after.seal("secret");
    expect(sealedKeyId(fresh)).toBe(after.currentKeyId);
    expect(after.needsResealing(fresh)).toBe(false);
    // Every process that starts later reads the same keys, in the same order.
    expect(loadSecretBox(dir, {}).keyIds).toEqual(after.keyIds);
    expect((fs.statSync(path.join(dir, "secret-keys.json")).mode & 0o777).toString(8)).toBe("600");
  });

  it("opens, in a process started before a rotation, what the rotation sealed, and seals under the new key from then on", () => {
    const dir = emptyDir();
    const running = loadSecretBox(dir, {});
    const rotated = addSecretKey(dir, Date.now() + 1000);
    const resealed = rotated.seal("secret");
    expect(running.currentKeyId).not.toBe(rotated.currentKeyId);
    expect(running.open(resealed)).toBe("secret");
    expect(running.currentKeyId).toBe(rotated.currentKeyId);
    expect(sealedKeyId(running.seal("later"))).toBe(rotated.currentKeyId);
    // A key that is in no file stays unknown, however often asked.
    const stranger = new SecretBox([newSecretKey()]).seal("secret");
    expect(() => running.open(stranger)).toThrow(/is not configured/);
  });

  it("takes its keys from ECFX_SECRET_KEYS when set, and writes no key file", () => {
    const dir = emptyDir();
    const box = loadSecretBox(dir, { ECFX_SECRET_KEYS: `${keyText("new", 3)}, ${keyText("old", 4)}` });
    expect(box.keyIds).toEqual(["new", "old"]);
    expect(fs.existsSync(path.join(dir, "secret-keys.json"))).toBe(false);
    expect(() => parseSecretKeys("no-colon")).toThrow(SecretBoxError);
    expect(() => new SecretBox(parseSecretKeys("short:AAAA"))).toThrow(SecretBoxError);
  });

  it("gives processes starting together on an empty data folder one and the same key", async () => {
    const dir = emptyDir();
    const script = `import { loadSecretBox } from ${JSON.stringify(path.resolve("server/auth/secret-box.ts"))};
process.stdout.write(loadSecretBox(process.env.KEY_DIR, {}).currentKeyId);`;
    const tsx = path.resolve("node_modules/.bin/tsx");
    const run = () => promisify(execFile)(tsx, ["--eval", script], { encoding: "utf8", env: { ...process.env, KEY_DIR: dir } });
    const answers = await Promise.all([run(), run(), run(), run()]);
    const ids = answers.map((a) => a.stdout);
    expect(ids[0]).toMatch(/^k\w+$/);
    expect(new Set(ids).size).toBe(1);
    expect(loadSecretBox(dir, {}).currentKeyId).toBe(ids[0]);
    expect(fs.readdirSync(dir)).toEqual(["secret-keys.json"]);
  }, 30_000);
});
