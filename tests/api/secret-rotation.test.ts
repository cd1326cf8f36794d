import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { SecretBox, addSecretKey, loadSecretBox, newSecretKey, sealedKeyId } from "../../server/auth/secret-box";
import type { DB } from "../../server/db/schema";
import { countSealed, resealAll, sealedColumns } from "../../server/cli/secret-rotation";
import { secretsCommand } from "../../server/cli/secrets";
import { credentialTokenStore } from "../../server/dms/credential-tokens";
import { runInProcess } from "./command-in-process";
import { DEMO, DEMO_PASSWORD, api, creator, login, useApi } from "./harness";

// A firm's DMS secrets stay readable across a key rotation: every sealed value moves to the new
// key, the old key still opens backups taken before, and a value no key opens is reported and
// kept as stored (decision 052).

interface Sealed {
  table: string;
  key: unknown;
  column: string;
  value: string;
}

/** Every non-empty value of every secret column, as stored. */
async function storedSecrets(db: Kysely<DB>): Promise<Sealed[]> {
  const found: Sealed[] = [];
  for (const place of sealedColumns()) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const rows = (await (db as unknown as Kysely<any>).selectFrom(place.table).selectAll().execute()) as Record<string, unknown>[];
    for (const row of rows)
      for (const column of place.columns) {
        const value = row[column];
        if (typeof value === "string" && value !== "") found.push({ table: place.table, key: row[place.key], column, value });
      }
  }
  return found;
}

describe("sealed secrets and their rotation", () => {
  const server = useApi({ backend: "sqlite" });
  const ecfx = async (args: string[], env: Record<string, string> = {}) => {
    const { ctx } = server();
    const run = await runInProcess(
      secretsCommand,
      args,
      { ECFX_DATA_DIR: ctx.config.dataDir, ECFX_DEMO: "true", ECFX_DEMO_DATA: "false", ECFX_DEMO_PASSWORD: DEMO_PASSWORD, LOG_LEVEL: "silent", ...env },
      ["DATABASE_URL", "ECFX_SECRET_KEYS"],
    );
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  };

  it("seals every secret again under a new key, keeps it opening to the same text, and reports the one no key opens", async () => {
    const { url, ctx } = server();
    const session = await login(url, DEMO.admin);
    const create = creator(api(url, session.access_token));
    const boxId = await create("/api/v1/box-client-credential-grant-credential", {
      name: "Box",
      client_key: "key",
      client_secret: "box-secret",
      box_subject_type: "enterprise",
      box_subject_id: "1",
    });
    await create("/api/v1/dropbox-credential", { name: "Dropbox", app_key: "key", app_secret: "dropbox-secret", refresh_token: "dropbox-refresh" });
    const lostId = await create("/api/v1/box-client-credential-grant-credential", {
      name: "Lost",
      client_key: "key",
      client_secret: "lost",
      box_subject_type: "enterprise",
      box_subject_id: "2",
    });
    await credentialTokenStore(ctx, 1, boxId).write({ accessToken: "token", expiresAt: 1 });
    // A secret sealed under a key this installation no longer has.
    const lost = new SecretBox([newSecretKey()]).seal("lost");
    await ctx.database.db.updateTable("box_client_credential_grant_credential").set({ client_secret: lost }).where("id", "=", lostId).execute();

    const oldBox = ctx.secretBox;
    const backup = (await storedSecrets(ctx.database.db)).filter((s) => s.value !== lost);
    expect(backup.map((s) => oldBox.open(s.value)).sort()).toEqual(["box-secret", "dropbox-refresh", "dropbox-secret", expect.stringContaining("token")]);
    expect(backup.every((s) => sealedKeyId(s.value) === oldBox.currentKeyId)).toBe(true);

    const newBox = addSecretKey(ctx.config.dataDir);
    const report = await resealAll(ctx.database.db, newBox);
    expect(report.resealed).toBe(backup.length);
    expect(report.current).toBe(0);
    expect(report.unreadable).toEqual([
      { table: "box_client_credential_grant_credential", id: lostId, column: "client_secret", reason: expect.stringContaining("is not configured") },
    ]);

    const after = await storedSecrets(ctx.database.db);
    for (const before of backup) {
      const now = after.find((s) => s.table === before.table && s.key === before.key && s.column === before.column)!;
      expect(sealedKeyId(now.value)).toBe(newBox.currentKeyId);
      expect(newBox.open(now.value)).toBe(oldBox.open(before.value));
      // The new key file still holds the old key: a backup from before the rotation opens.
      expect(loadSecretBox(ctx.config.dataDir, {}).open(before.value)).toBe(oldBox.open(before.value));
    }
    expect(after.find((s) => s.key === lostId)?.value).toBe(lost);

    const again = await resealAll(ctx.database.db, newBox);
    expect(again).toEqual({ resealed: 0, current: backup.length, unreadable: [expect.objectContaining({ id: lostId })] });
    const counts = await countSealed(ctx.database.db);
    expect(Object.fromEntries(counts.byKey)).toEqual({ [newBox.currentKeyId]: backup.length, [sealedKeyId(lost)!]: 1 });
  });

  it("rotates and counts from the command line, and leaves ECFX_SECRET_KEYS to the operator", async () => {
    const { ctx } = server();
    const before = loadSecretBox(ctx.config.dataDir, {});
    const rotated = await ecfx(["rotate"]);
    expect(rotated.stderr).toBe("");
    const after = loadSecretBox(ctx.config.dataDir, {});
    expect(after.keyIds.slice(1)).toEqual(before.keyIds);
    // The one lost value of the test above keeps the exit status at 1 and is named.
    expect(rotated.code).toBe(1);
    expect(rotated.stdout).toContain(
      `Sealing key: ${after.currentKeyId}\nSealed again: 4 values; already under ${after.currentKeyId}: 0\n1 value did not open and was left as stored:\n  box_client_credential_grant_credential `,
    );

    const status = await ecfx(["status"]);
    expect(status.code).toBe(0);
    expect(status.stdout.split("\n")[0]).toBe(`${after.currentKeyId}  4 values  (seals)`);
    expect(status.stdout).toContain(`${before.currentKeyId}  0 values\n`);
    expect(status.stdout).toMatch(/\n\w+ {2}1 value {2}\(not configured: these do not open\)\n$/);

    const key = `env1:${Buffer.alloc(32, 9).toString("base64")}`;
    // One after the other: each sets this process's environment while it runs.
    const refused = await ecfx(["rotate"], { ECFX_SECRET_KEYS: key });
    const unknown = await ecfx(["spin"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("put a new key first in ECFX_SECRET_KEYS");
    expect(loadSecretBox(ctx.config.dataDir, {}).keyIds).toEqual(after.keyIds);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("ecfx secrets: unknown action spin");
  }, 60_000);
});
