import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import nodemailer from "nodemailer";
// @ts-expect-error: s3rver ships no types.
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { type Database, migrateToLatest } from "../../server/db/database";
import { OutboundGuard } from "../../server/outbound/guard";
import { DEMO_INBOX } from "../../server/seed/demo";
import { type BlobBackend, BlobStore, ORPHAN_AGE_MS } from "../../server/blobs/blob-store";
import { FolderBlobs } from "../../server/blobs/folder-blobs";
import { S3Blobs } from "../../server/blobs/s3-blobs";
import { openFresh } from "../unit/earlier-migrations";
import { type Backend, backends } from "./harness";
import { TestBed, batchOf, expectEachOnce, freePort, killGroup, settled } from "./product-processes";

// Raw bytes of fetched documents in an S3-compatible object store (s3rver, an S3 implementation
// we did not write) as in the data folder: the same store rules for both, a crash between the
// upload and the row losing nothing, and bytes no row claims swept once they are an hour old.

const BUCKET = "ecfx-blobs";
const KEYS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

interface Started {
  url: string;
  close(): Promise<void>;
}

async function startS3(): Promise<Started> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: BUCKET }] });
  const { port } = (await server.run()) as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

let s3: Started;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.close();
});

const s3Settings = (prefix: string) => ({
  ECFX_BLOB_STORE: "s3",
  ECFX_S3_BUCKET: BUCKET,
  ECFX_S3_PREFIX: prefix,
  ECFX_S3_ENDPOINT: s3.url,
  ECFX_S3_FORCE_PATH_STYLE: "true",
  ECFX_S3_ACCESS_KEY_ID: KEYS.accessKeyId,
  ECFX_S3_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
});

const s3Blobs = (prefix: string) =>
  new S3Blobs({
    bucket: BUCKET,
    prefix,
    region: "us-east-1",
    endpoint: s3.url,
    forcePathStyle: true,
    ...KEYS,
    guard: new OutboundGuard({ allowedOrigins: [s3.url] }),
  });

/** The keys under a prefix, read with the SDK directly rather than through the store. */
async function keysUnder(prefix: string): Promise<string[]> {
  const client = new S3Client({ region: "us-east-1", endpoint: s3.url, forcePathStyle: true, credentials: KEYS });
  const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  client.destroy();
  return (listed.Contents ?? []).map((o) => o.Key!).sort();
}

let prefixes = 0;
const backendsOfBlobs: [string, () => { backend: BlobBackend; keys: () => Promise<string[]> }][] = [
  [
    "folder",
    () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-blobs-"));
      const backend = new FolderBlobs(root);
      return {
        backend,
        keys: async () =>
          fs
            .readdirSync(root, { recursive: true })
            .map(String)
            .filter((f) => /[0-9a-f]{64}$/.test(f)),
      };
    },
  ],
  [
    "s3",
    () => {
      const prefix = `unit-${++prefixes}/`;
      return { backend: s3Blobs(prefix), keys: () => keysUnder(prefix) };
    },
  ],
];

describe.each(backends)("stored files (%s)", (dbBackend: Backend) => {
  /** A migrated database of the backend, for one test. */
  async function migrated(): Promise<Database> {
    const database = await openFresh(dbBackend);
    onTestFinished(() => database.close());
    await migrateToLatest(database);
    return database;
  }

  describe.each(backendsOfBlobs)("in the %s store", (_name, make) => {
    it("keeps one copy per content, with its row, and reads it back", async () => {
      const { backend, keys } = make();
      const database = await migrated();
      const store = new BlobStore(backend, database);
      const bytes = Buffer.from(`%PDF-1.4 order ${Math.random()}`);
      const sha = await store.put(bytes, "application/pdf", Date.now());
      expect(await store.put(bytes, "application/pdf", Date.now())).toBe(sha);
      expect((await store.read(sha)).equals(bytes)).toBe(true);
      expect(await store.exists(sha)).toBe(true);
      expect(await keys()).toHaveLength(1);
      expect(await database.db.selectFrom("blob").select(["size", "content_type"]).where("sha256", "=", sha).executeTakeFirst()).toEqual({
        size: bytes.length,
        content_type: "application/pdf",
      });
    });

    it("sweeps bytes no row claims once they are an hour old, and never bytes a row claims", async () => {
      const { backend, keys } = make();
      const database = await migrated();
      const store = new BlobStore(backend, database);
      const claimed = await store.put(Buffer.from(`claimed ${Math.random()}`), "application/pdf", Date.now());
      // What a crash between the upload and the row leaves: bytes, no row.
      const orphanBytes = Buffer.from(`orphan ${Math.random()}`);
      const orphan = (await import("node:crypto")).createHash("sha256").update(orphanBytes).digest("hex");
      await backend.write(orphan, orphanBytes);
      expect(await keys()).toHaveLength(2);

      expect(await store.sweepOrphans(Date.now())).toBe(0);
      expect(await keys()).toHaveLength(2);
      expect(await store.sweepOrphans(Date.now() + ORPHAN_AGE_MS + 60_000)).toBe(1);
      expect(await store.exists(orphan)).toBe(false);
      expect(await store.exists(claimed)).toBe(true);
      expect(await keys()).toHaveLength(1);
    });

    it("stores again what a sweep removed while a put of the same bytes was on its way to its row", async () => {
      const { backend } = make();
      const database = await migrated();
      const bytes = Buffer.from(`raced ${Math.random()}`);
      const sha = (await import("node:crypto")).createHash("sha256").update(bytes).digest("hex");
      await backend.write(sha, bytes);
      let putting: Promise<string> | undefined;
      const store = new BlobStore(
        {
          ...backend,
          write: (s, b) => backend.write(s, b),
          read: (s) => backend.read(s),
          exists: (s) => backend.exists(s),
          writtenAt: (s) => backend.writtenAt(s),
          list: () => backend.list(),
          // The put starts just as the sweep is about to remove the bytes it judged an orphan.
          remove: async (s) => {
            putting ??= store.put(bytes, "application/pdf", Date.now());
            await new Promise((resolve) => setTimeout(resolve, 50));
            await backend.remove(s);
          },
        },
        database,
      );
      const later = Date.now() + ORPHAN_AGE_MS + 60_000;
      await store.sweepOrphans(later);
      expect(putting).toBeDefined();
      expect(await putting).toBe(sha);
      expect((await store.read(sha)).equals(bytes)).toBe(true);
      expect(await store.sweepOrphans(later)).toBe(0);
    });
  });
});

describe.each(backends)("a crash between a document's upload to the object store and its row (%s)", (dbBackend: Backend) => {
  const bed = new TestBed("object-store");
  afterAll(() => bed.close());

  it("finishes every acknowledged notice with every document readable from the bucket", async () => {
    const smtpPort = await freePort();
    const prefix = `crash-${dbBackend}/`;
    const env = {
      ...(await bed.start(dbBackend, "Object-Store-Passw0rd")),
      ...s3Settings(prefix),
      ECFX_ROLES: "worker,smtp",
      ECFX_SMTP_PORT: String(smtpPort),
      ECFX_SMTP_HOST: "127.0.0.1",
    };
    const acknowledged: string[] = [];
    const paused = bed.spawn({ ...env, ECFX_TEST_PAUSE_AT: "blob-uploaded" });
    await paused.waitFor("SMTP inbox on port", 90_000);
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port: smtpPort, ignoreTLS: true });
    for (const notice of batchOf(0)) {
      await transport.sendMail({ envelope: { from: notice.from, to: [DEMO_INBOX] }, raw: notice.raw });
      acknowledged.push(notice.messageId);
    }
    transport.close();
    await paused.waitFor("ECFX paused at blob-uploaded", 90_000);
    await killGroup(paused);
    const database = bed.open();
    // The bytes are in the bucket, and no row names them yet.
    const uploaded = (await keysUnder(prefix)).map((key) => key.slice(key.lastIndexOf("/") + 1));
    expect(uploaded.length).toBeGreaterThan(0);
    const rows = await database.db.selectFrom("blob").select("sha256").execute();
    expect(uploaded.filter((sha) => !rows.some((r) => r.sha256 === sha)).length).toBeGreaterThan(0);

    const product = bed.spawn(env);
    await product.waitFor("SMTP inbox on port", 90_000);
    expect(await settled(database, 120_000), product.output().slice(-3000)).toBe("");
    await expectEachOnce(database, acknowledged, bed.relay, bed.dataDir);

    // Every fetched document's bytes are in the bucket, and nothing was written to the data folder.
    const documents = await database.db.selectFrom("document").select("file_id").where("file_id", "is not", null).execute();
    expect(documents.length).toBeGreaterThan(0);
    const inBucket = new Set((await keysUnder(prefix)).map((key) => key.slice(key.lastIndexOf("/") + 1)));
    expect(documents.filter((d) => !inBucket.has(d.file_id!))).toEqual([]);
    expect(fs.existsSync(path.join(bed.dataDir, "blobs"))).toBe(false);
    await killGroup(product);
  }, 300_000);
});
