import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { parseRange } from "./outbound/guard";
import { LOG_LEVELS } from "../app/common/logger";

const roles = ["console", "api", "worker", "smtp"] as const;
export type ProcessRole = (typeof roles)[number];

const port = z.coerce.number().int().min(0).max(65535);
const bool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

const isRange = (entry: string) => {
  try {
    parseRange(entry);
    return true;
  } catch {
    return false;
  }
};

/** "http://127.0.0.1:8790": a URL that is nothing but its origin. */
const isOrigin = (entry: string) => {
  try {
    const url = new URL(entry);
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === entry.replace(/\/$/, "");
  } catch {
    return false;
  }
};

/** A setting of several values separated by commas; spaces and empty entries ignored. */
const commaList = z
  .string()
  .default("")
  .transform((v) =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );

// Every setting the processes read, validated once at boot so a typo stops the process early.
const schema = z.object({
  PORT: port.default(3000),
  ECFX_API_PORT: port.default(8080),
  ECFX_HOST: z.string().min(1).default("0.0.0.0"),
  ECFX_API_HOST: z.string().min(1).default("127.0.0.1"),
  ECFX_API_URL: z.string().url().optional(),
  ECFX_PUBLIC_URL: z.string().url().optional(),
  ECFX_DATA_DIR: z.string().min(1).default("./data"),
  /**
   * Where raw e-mails and fetched documents are kept: the data folder, or an S3-compatible bucket
   * for installations whose hosts share no folder (docs/decisions/117).
   */
  ECFX_BLOB_STORE: z.enum(["folder", "s3"]).default("folder"),
  ECFX_S3_BUCKET: z.string().min(3).optional(),
  ECFX_S3_PREFIX: z.string().default("blobs/"),
  ECFX_S3_REGION: z.string().min(1).default("us-east-1"),
  /** An S3-compatible service's URL; AWS's own hosts when absent. */
  ECFX_S3_ENDPOINT: z.string().url().optional(),
  ECFX_S3_FORCE_PATH_STYLE: bool.default("false"),
  ECFX_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  ECFX_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Root of the file-system DMS target; each credential's folder lies inside it. */
  ECFX_FILE_STORE_ROOT: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|sqlite:)/, "must start with postgres://, postgresql:// or sqlite:")
    .optional(),
  ECFX_ROLES: z
    .string()
    .default("console,api,worker,smtp")
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(roles)).min(1)),
  ECFX_DEMO: bool.default("true"),
  /** With the demo firm: its cases, and notices sent through the inbox on first start. */
  ECFX_DEMO_DATA: bool.default("true"),
  ECFX_DEMO_YEAR: bool.default("true"),
  ECFX_DEMO_PASSWORD: z.string().min(8, "must be at least 8 characters").default("Demo-Passw0rd!"),
  /** Case retrieve (spec §4): for development installations only, so off unless turned on here; `npm start` turns it on. */
  ECFX_CASE_RETRIEVE: bool.default("false"),
  ECFX_SMTP_RELAY_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .optional(),
  ECFX_MAIL_FROM: z.string().email().default("no-reply@ecfx.test"),
  ECFX_ACCESS_TOKEN_TTL: z.coerce.number().int().min(60).default(3600),
  ECFX_REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .min(300)
    .default(30 * 24 * 3600),
  ECFX_REFRESH_REUSE_LEEWAY: z.coerce.number().int().min(0).max(120).default(10),
  ECFX_LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  ECFX_LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(30),
  ECFX_LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).default(15),
  ECFX_TRUSTED_PROXIES: z.string().default("127.0.0.1,::1,::ffff:127.0.0.1"),
  ECFX_COOKIE_SECURE: z.enum(["auto", "true", "false"]).default("auto"),
  ECFX_SMTP_PORT: port.default(2525),
  ECFX_SMTP_HOST: z.string().min(1).default("0.0.0.0"),
  ECFX_SMTP_TLS_KEY: z.string().optional(),
  ECFX_SMTP_TLS_CERT: z.string().optional(),
  ECFX_SMTP_USERS: z
    .string()
    .regex(/^([^:;]+:[^;]+)(;[^:;]+:[^;]+)*$/, "must be user:password pairs separated by ;")
    .optional(),
  ECFX_SMTP_ALLOW: z.string().default(""),
  ECFX_SMTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(100),
  ECFX_SMTP_IDLE_SECONDS: z.coerce.number().int().min(1).default(60),
  ECFX_SMTP_SESSION_SECONDS: z.coerce.number().int().min(1).default(600),
  ECFX_COURT_BASE_URL: z.string().url().optional(),
  /** PACER's sign-in host (https://pacer.login.uscourts.gov unless switched: the QA host, the court simulator). */
  ECFX_PACER_AUTH_URL: z.string().url().optional(),
  /** Private address ranges outbound calls may reach (on-premises DMS, webhooks): "10.0.0.0/8,fd00::/8". */
  ECFX_OUTBOUND_ALLOW: commaList.refine((entries) => entries.every(isRange), "must be addresses or CIDR ranges separated by commas"),
  /**
   * Origins of title extraction providers the operator names (a local provider of tests):
   * reached although private or plain http. A firm's own client URL never is.
   */
  ECFX_EXTRACTION_ALLOWED_ORIGINS: commaList.refine((entries) => entries.every(isOrigin), "must be http(s) origins separated by commas"),
  /**
   * Where each vendor DMS is reached: the vendor's own service unless the operator points it
   * elsewhere (a local server that speaks the vendor's contract, in tests and the demo). A
   * switched origin is reached as it is, although private or plain http.
   */
  ECFX_BOX_BASE_URL: z.string().url().optional(),
  ECFX_DROPBOX_BASE_URL: z.string().url().optional(),
  ECFX_SHAREPOINT_GRAPH_BASE_URL: z.string().url().optional(),
  ECFX_IMANAGE_BASE_URL: z.string().url().optional(),
  ECFX_NETDOCUMENTS_BASE_URL: z.string().url().optional(),
  /** Clio's API and sign-in, every region's (the credential's region picks the host otherwise). */
  ECFX_CLIO_BASE_URL: z.string().url().optional(),
  /** Salesforce's sign-in for Litify credentials (login.salesforce.com otherwise); the API is the credential's instance URL. */
  ECFX_SALESFORCE_LOGIN_URL: z.string().url().optional(),
  ECFX_FILEVINE_BASE_URL: z.string().url().optional(),
  /** Origins of on-premises systems a firm's credential may name although private or plain http (tests, a lab). */
  ECFX_DMS_ALLOWED_ORIGINS: commaList.refine((entries) => entries.every(isOrigin), "must be http(s) origins separated by commas"),
  /** Longest one call to a DMS may take before it counts as a time-out and is tried again later. */
  ECFX_DMS_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /**
   * Origins of webhook receivers the operator names (a local receiver of tests and the demo):
   * reached although private or plain http. A URL a firm types never is.
   */
  ECFX_WEBHOOK_ALLOWED_ORIGINS: commaList.refine((entries) => entries.every(isOrigin), "must be http(s) origins separated by commas"),
  /**
   * Origins of identity providers the operator names (a local one of tests and the demo): their
   * metadata and OpenID discovery are fetched although private or plain http. A URL a firm types never is.
   */
  ECFX_SSO_ALLOWED_ORIGINS: commaList.refine((entries) => entries.every(isOrigin), "must be http(s) origins separated by commas"),
  ECFX_COURT_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  ECFX_COURT_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** ECFX Track prices (spec §9 names none; decision 054), in US cents, fixed on a case when it is subscribed or resumed. */
  ECFX_TRACK_MONTHLY_FEE_CENTS: z.coerce.number().int().min(0).default(2500),
  ECFX_TRACK_PER_DOCUMENT_CENTS: z.coerce.number().int().min(0).default(10),
  /** Stripe's secret API key and the signing secret of its webhook endpoint: invoices are paid through Stripe only when both are set (decision 112). */
  ECFX_STRIPE_SECRET_KEY: z.string().min(1).optional(),
  ECFX_STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Sends Stripe's API calls to this origin instead (a local server speaking Stripe's API in tests and the demo). */
  ECFX_STRIPE_BASE_URL: z.string().refine(isOrigin, "must be an http(s) origin").optional(),
  /** How often a tracked case's court docket feed is read. */
  ECFX_TRACK_POLL_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
  /**
   * How many processes serve the console and the API each (one port, Node's cluster): every core
   * by default. 1 runs each in the process that starts it.
   */
  ECFX_WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(os.availableParallelism()),
  ECFX_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** A file the worker touches while it runs and reaches its queue: a container's health check reads its age. */
  ECFX_WORKER_HEARTBEAT_FILE: z.string().optional(),
  /**
   * How long a worker keeps a job it took before another may take it: the time a worker that dies
   * on another machine holds up its jobs (on the same machine they are freed when a worker starts).
   * Longer than any one job may run.
   */
  ECFX_JOB_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  /** How long the dashboard's counts are kept per firm, period and scope; 0 counts on every request. */
  ECFX_DASHBOARD_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** Analytics (Mixpanel-compatible HTTP): off unless a token applies to the console's host. */
  ECFX_ANALYTICS_TOKEN: z.string().min(1).optional(),
  ECFX_ANALYTICS_TOKEN_DEV: z.string().min(1).optional(),
  ECFX_ANALYTICS_PRODUCTION_MARKER: z.string().min(1).default("ecfx"),
  ECFX_ANALYTICS_URL: z.string().url().default("https://api.mixpanel.com"),
  /** How much every process logs (app/common/logger.ts); LOG_LEVEL is its earlier name, read when it is not set. */
  ECFX_LOG_LEVEL: z.enum(LOG_LEVELS).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
  /** json (one object a line, the container's) or pretty (readable lines, `npm start`'s). */
  ECFX_LOG_FORMAT: z.enum(["json", "pretty"]).default("json"),
});

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const c = parsed.data;
  if (c.ECFX_BLOB_STORE === "s3") {
    const missing = (["ECFX_S3_BUCKET", "ECFX_S3_ACCESS_KEY_ID", "ECFX_S3_SECRET_ACCESS_KEY"] as const).filter((name) => !c[name]);
    if (missing.length) throw new ConfigError(`Invalid configuration:\n${missing.map((name) => `  ${name}: required with ECFX_BLOB_STORE=s3`).join("\n")}`);
  }
  const dataDir = path.resolve(c.ECFX_DATA_DIR);
  return {
    ...c,
    LOG_LEVEL: c.ECFX_LOG_LEVEL ?? c.LOG_LEVEL,
    dataDir,
    fileStoreRoot: path.resolve(c.ECFX_FILE_STORE_ROOT ?? path.join(dataDir, "dms")),
    databaseUrl: c.DATABASE_URL ?? `sqlite:${path.join(dataDir, "ecfx.sqlite")}`,
    apiUrl: c.ECFX_API_URL ?? `http://127.0.0.1:${c.ECFX_API_PORT}`,
    publicUrl: (c.ECFX_PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ""),
    trustedProxies: c.ECFX_TRUSTED_PROXIES.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  };
}
