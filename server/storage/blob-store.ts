import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Database } from "../db/database";

/**
 * Content-addressed files under the data folder: a document fetched twice is stored once.
 * Written to a temporary name and renamed, so a crash never leaves a half file under its hash.
 */
export class BlobStore {
  constructor(
    private readonly root: string,
    private readonly database: Database,
  ) {}

  private pathOf(sha256: string): string {
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async put(bytes: Buffer, contentType: string, now: number): Promise<string> {
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const target = this.pathOf(sha256);
    if (!fs.existsSync(target)) {
      await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      const temp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
      await fs.promises.writeFile(temp, bytes, { mode: 0o600 });
      await fs.promises.rename(temp, target);
    }
    await this.database.db
      .insertInto("blob")
      .values({ sha256, size: bytes.length, content_type: contentType, created_at: now })
      .onConflict((oc) => oc.column("sha256").doNothing())
      .execute();
    return sha256;
  }

  async read(sha256: string): Promise<Buffer> {
    return fs.promises.readFile(this.pathOf(sha256));
  }

  exists(sha256: string): boolean {
    return fs.existsSync(this.pathOf(sha256));
  }

  /** Removes the file of a hash whose row is gone; a row stored again since keeps its file. */
  async removeUnlisted(sha256: string): Promise<boolean> {
    const listed = await this.database.db.selectFrom("blob").select("sha256").where("sha256", "=", sha256).executeTakeFirst();
    if (listed) return false;
    await fs.promises.rm(this.pathOf(sha256), { force: true });
    return true;
  }
}
