import { describe, expect, it } from "vitest";
import { SecretBox, newSecretKey } from "../auth/secret-box";
import type { ServerContext } from "../context";
import { memoryDatabaseWithFirm } from "../../tests/unit/memory-database";
import { credentialTokenStore } from "./credential-tokens";

describe("credentialTokenStore", () => {
  it("has a renewed token on the disk before the vendor's next call can need it (decision 139)", async () => {
    const { database, firmId } = await memoryDatabaseWithFirm();
    const secretBox = new SecretBox([newSecretKey()]);
    /** At each flush: the refresh token committed by then. */
    const flushed: (string | undefined)[] = [];
    const ctx = {
      database: {
        ...database,
        commitsOnDisk: async () => {
          const row = await database.db.selectFrom("dms_credential_token").select("sealed").executeTakeFirst();
          flushed.push(row ? JSON.parse(secretBox.open(row.sealed)).refreshToken : undefined);
        },
      },
      secretBox,
      clock: { now: () => 1000 },
    } as unknown as ServerContext;
    const tokens = credentialTokenStore(ctx, firmId, "credential-1");
    await tokens.write({ accessToken: "a1", refreshToken: "r1", expiresAt: 2000 });
    await tokens.write({ accessToken: "a2", refreshToken: "r2", expiresAt: 3000 });
    expect(flushed).toEqual(["r1", "r2"]);
    expect(await tokens.read()).toMatchObject({ refreshToken: "r2" });
    await database.close();
  });
});
