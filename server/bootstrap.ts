import type { Config } from "./config";
import type { ServerContext } from "./context";
import { loadOrCreateSecrets } from "./auth/secrets";
import { loadSecretBox } from "./auth/secret-box";
import { migrateToLatest, openDatabase } from "./db/database";
import { ensurePriceList } from "./billing/prices";
import { underStartupLock } from "./db/startup-lock";
import { seedDemo } from "./seed/demo";
import { seedDemoFirmData } from "./seed/demo-firm-data";
import { resetDemoFirm } from "./seed/demo-reset";
import { seedReferenceData } from "./seed/reference-data";
import { type Clock, systemClock } from "./lib/clock";
import path from "node:path";
import { CourtConnector } from "./courts/connector";
import { OutboundGuard } from "./outbound/guard";
import { TitleClient } from "./extraction/title-client";
import { createMailer } from "./mail/mailer";
import { BlobStore } from "./blobs/blob-store";
import { FolderBlobs } from "./blobs/folder-blobs";
import { S3Blobs } from "./blobs/s3-blobs";

/** How long one call to a title extraction provider may take before it is tried again later. */
const EXTRACTION_TIMEOUT_MS = 30_000;

/** Origins of DMS the operator named: switched vendor services and on-premises systems. */
function dmsOperatorOrigins(config: Config): string[] {
  const switched = [
    config.ECFX_BOX_BASE_URL,
    config.ECFX_DROPBOX_BASE_URL,
    config.ECFX_SHAREPOINT_GRAPH_BASE_URL,
    config.ECFX_IMANAGE_BASE_URL,
    config.ECFX_NETDOCUMENTS_BASE_URL,
    config.ECFX_CLIO_BASE_URL,
    config.ECFX_SALESFORCE_LOGIN_URL,
    config.ECFX_FILEVINE_BASE_URL,
  ].filter((url): url is string => Boolean(url));
  return [...switched, ...config.ECFX_DMS_ALLOWED_ORIGINS];
}

/** The data folder's blobs, or the operator's bucket. */
function blobBackend(config: Config) {
  if (config.ECFX_BLOB_STORE === "folder") return new FolderBlobs(path.join(config.dataDir, "blobs"));
  return new S3Blobs({
    bucket: config.ECFX_S3_BUCKET!,
    prefix: config.ECFX_S3_PREFIX,
    region: config.ECFX_S3_REGION,
    endpoint: config.ECFX_S3_ENDPOINT,
    forcePathStyle: config.ECFX_S3_FORCE_PATH_STYLE,
    accessKeyId: config.ECFX_S3_ACCESS_KEY_ID!,
    secretAccessKey: config.ECFX_S3_SECRET_ACCESS_KEY!,
    // The endpoint the operator names is reached as it is, like the court simulator's.
    guard: new OutboundGuard({ allowedOrigins: config.ECFX_S3_ENDPOINT ? [config.ECFX_S3_ENDPOINT] : [], allowedRanges: config.ECFX_OUTBOUND_ALLOW }),
  });
}

/** Opens the database (migrated), the secrets and the mailer: what every server role needs. */
/** The context, and whether this start created the demo firms (the demo notices follow then). */
export async function openContext(config: Config, clock: Clock = systemClock): Promise<ServerContext & { seededDemo: boolean }> {
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  await seedReferenceData(database);
  await ensurePriceList(database.db, config, clock.now());
  const secrets = loadOrCreateSecrets(config.dataDir);
  const secretBox = loadSecretBox(config.dataDir);
  const mailer = createMailer({ database, clock, from: config.ECFX_MAIL_FROM, relayUrl: config.ECFX_SMTP_RELAY_URL });
  // Processes started together on one database create the demo firms once, not once each.
  const seededDemo = config.ECFX_DEMO ? await underStartupLock(config.databaseUrl, () => seedDemo(database, config.ECFX_DEMO_PASSWORD, clock.now())) : false;
  const blobs = new BlobStore(blobBackend(config), database);
  const courts = new CourtConnector({
    baseUrl: config.ECFX_COURT_BASE_URL,
    timeoutMs: config.ECFX_COURT_TIMEOUT_MS,
    perCourtConcurrency: config.ECFX_COURT_CONCURRENCY,
    maxBytes: 200 * 1024 * 1024,
    // The court simulator and PACER sign-in host the operator names are the local addresses court requests may reach.
    guard: new OutboundGuard({
      allowedOrigins: [config.ECFX_COURT_BASE_URL, config.ECFX_PACER_AUTH_URL].filter((url): url is string => Boolean(url)),
      allowedRanges: config.ECFX_OUTBOUND_ALLOW,
    }),
  });
  // A guard of its own: the court simulator's origin is no extraction provider, and a firm's client
  // URL reaches a private address only where the operator named that origin (decision 051).
  const titles = new TitleClient({
    guard: new OutboundGuard({ allowedOrigins: config.ECFX_EXTRACTION_ALLOWED_ORIGINS, allowedRanges: config.ECFX_OUTBOUND_ALLOW }),
    timeoutMs: EXTRACTION_TIMEOUT_MS,
    now: () => clock.now(),
  });
  const dmsGuard = new OutboundGuard({ allowedOrigins: dmsOperatorOrigins(config), allowedRanges: config.ECFX_OUTBOUND_ALLOW });
  const ctx: ServerContext = { config, database, secrets, secretBox, clock, mailer, blobs, courts, titles, dmsGuard };
  if (config.ECFX_DEMO) ctx.resetDemoFirm = (caller) => resetDemoFirm(ctx, caller);
  if (seededDemo && config.ECFX_DEMO_DATA) {
    const demo = await database.db.selectFrom("firm").select("id").where("is_default", "=", 1).executeTakeFirstOrThrow();
    await seedDemoFirmData(ctx, demo.id);
  }
  return { ...ctx, seededDemo };
}
