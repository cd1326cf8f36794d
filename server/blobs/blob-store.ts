import { createHash } from "node:crypto";
import { type Insertable, type Kysely, sql } from "kysely";
import type { Database } from "../db/database";
import type { DB } from "../db/schema";
import { pauseAt } from "../lib/test-pause";
import { columnsOf, selectionOf } from "../queue/logged-change";

/** Where a blob store keeps its bytes, by content hash: a folder, or an S3-compatible bucket. */
export interface BlobBackend {
  /** Stores the bytes under their hash whole or not at all (never a half object under the hash). */
  write(sha256: string, bytes: Buffer): Promise<void>;
  read(sha256: string): Promise<Buffer>;
  exists(sha256: string): Promise<boolean>;
  remove(sha256: string): Promise<void>;
  /** Every stored hash with when its bytes were last written. */
  list(): AsyncIterable<{ sha256: string; writtenAt: number }>;
  /** When the bytes of one hash were last written; null when there are none. */
  writtenAt(sha256: string): Promise<number | null>;
}

/**
 * Bytes left without a row for longer than this are orphans (a crash between the upload and the
 * row): long enough that no upload still on its way to its row is taken for one.
 */
export const ORPHAN_AGE_MS = 60 * 60_000;

/**
 * Content-addressed bytes (raw e-mails, fetched documents): a document fetched twice is stored
 * once. The `blob` row is written after the bytes, so a row always has its bytes; bytes without a
 * row (a crash in between) are never read, and swept once they are older than ORPHAN_AGE_MS.
 * The sweep and a put of the same hash take the same lock, so the sweep never removes bytes a
 * new row has just claimed (docs/decisions/117-blobs-in-a-folder-or-an-object-store.md).
 */
export class BlobStore {
  constructor(
    private readonly backend: BlobBackend,
    private readonly database: Database,
  ) {}

  async put(bytes: Buffer, contentType: string, now: number): Promise<string> {
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    // Written again when present: the write refreshes its age, so a sweep under way leaves it.
    await this.backend.write(sha256, bytes);
    await pauseAt("blob-uploaded");
    await this.insertRow({ sha256, size: bytes.length, content_type: contentType, created_at: now });
    // A sweep that held the lock before the row removed the bytes it saw as an orphan: the row
    // now keeps any further sweep away, so writing them once more is final.
    if (!(await this.backend.exists(sha256))) await this.backend.write(sha256, bytes);
    return sha256;
  }

  read(sha256: string): Promise<Buffer> {
    return this.backend.read(sha256);
  }

  exists(sha256: string): Promise<boolean> {
    return this.backend.exists(sha256);
  }

  /** Removes the bytes of a hash whose row is gone; a row stored again since keeps them. */
  async removeUnlisted(sha256: string): Promise<boolean> {
    return this.database.db.transaction().execute(async (tx) => {
      await this.lockHash(tx, sha256);
      const listed = await tx.selectFrom("blob").select("sha256").where("sha256", "=", sha256).executeTakeFirst();
      if (listed) return false;
      await this.backend.remove(sha256);
      return true;
    });
  }

  /** Removes bytes that no row has claimed for ORPHAN_AGE_MS; answers how many. */
  async sweepOrphans(now: number): Promise<number> {
    let removed = 0;
    for await (const { sha256, writtenAt } of this.backend.list()) {
      if (now - writtenAt < ORPHAN_AGE_MS) continue;
      const listed = await this.database.db.selectFrom("blob").select("sha256").where("sha256", "=", sha256).executeTakeFirst();
      if (listed) continue;
      const gone = await this.database.db.transaction().execute(async (tx) => {
        await this.lockHash(tx, sha256);
        if (await tx.selectFrom("blob").select("sha256").where("sha256", "=", sha256).executeTakeFirst()) return false;
        // Written again since it was listed: a put is on its way to its row.
        const written = await this.backend.writtenAt(sha256);
        if (written === null || now - written < ORPHAN_AGE_MS) return false;
        await this.backend.remove(sha256);
        return true;
      });
      if (gone) removed++;
    }
    return removed;
  }

  /**
   * The row of stored bytes, under the hash's lock. On PostgreSQL one statement: the lock is taken
   * in a CTE the insert reads from, and held until the statement's own transaction ends.
   */
  private async insertRow(row: Insertable<DB["blob"]>): Promise<void> {
    const { db } = this.database;
    if (this.database.dialect === "postgres") {
      await db
        .with("locked", (qc) => qc.selectNoFrom(sql`pg_advisory_xact_lock(${BLOB_LOCK}, hashtext(${row.sha256}))`.as("locked")))
        .insertInto("blob")
        .columns(columnsOf(row))
        .expression((eb) => eb.selectFrom("locked").select(selectionOf(row)))
        .onConflict((oc) => oc.column("sha256").doNothing())
        .execute();
      return;
    }
    // SQLite: one insert takes the database's one write lock, which a sweep's transaction holds.
    await db
      .insertInto("blob")
      .values(row)
      .onConflict((oc) => oc.column("sha256").doNothing())
      .execute();
  }

  /**
   * Serialises a put's row and a sweep's removal of one hash. SQLite's transactions already take
   * the database's one write lock (they begin IMMEDIATE); PostgreSQL takes a lock of the hash.
   */
  private async lockHash(tx: Kysely<DB>, sha256: string): Promise<void> {
    if (this.database.dialect !== "postgres") return;
    await sql`select pg_advisory_xact_lock(${BLOB_LOCK}, hashtext(${sha256}))`.execute(tx);
  }
}

/** The first key of the hash locks (PostgreSQL's two-key advisory locks): blobs' own space. */
const BLOB_LOCK = 0x626c6f62;
