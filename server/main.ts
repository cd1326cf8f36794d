import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildConsoleIfNeeded } from "../scripts/build-console";
import { buildApi } from "./api/app";
import { listenOnOwnPort } from "./api/own-port";
import { loadOrCreateSecrets } from "./auth/secrets";
import { openContext } from "./bootstrap";
import { startConsoleServer } from "./console-host/console-server";
import type { ServerContext } from "./context";
import { ConfigError, type Config, loadConfig } from "./config";
import { startCourtSimulator } from "./courts/simulator";
import { DEMO_INBOX, DEMO_USERS } from "./seed/demo";
import { FIRST_FIRM_HINT } from "./cli/firm";
import { resealAll, sealedColumns } from "./cli/secret-rotation";
import { addDemoYearInBackground } from "./seed/demo-year";
import { sendDemoNotices } from "./seed/send-demo-notices";
import { createSmtpListener, listen } from "./inbox/smtp-listener";
import { startDigestScheduler } from "./notify/digest-scheduler";
import { startCountCompaction } from "./dashboard/compact-counts";
import { startWorker } from "./queue/worker";
import { startHeartbeat } from "./queue/heartbeat";
import { PIPELINE_JOBS } from "./job-handlers";
import { requeueStalledWork } from "./pipeline/requeue-stalled";
import { startOrphanSweep } from "./blobs/orphan-sweep";
import { issueDueInvoices } from "./billing/invoices";
import { isServerCopy, startServerCopies } from "./lib/server-copies";
import { logger } from "../app/common/logger";

const log = logger();

const root = process.env.ECFX_ROOT ?? process.cwd();

/** Compiled, the console's server sits beside this file (build/server); from source, tsx runs it. */
function consoleServerCommand(): string[] {
  const compiled = fileURLToPath(new URL("./console-serve.js", import.meta.url));
  if (import.meta.url.endsWith(".js") && fs.existsSync(compiled)) return [compiled];
  return ["--import", "tsx", path.join(root, "server", "console", "serve.ts")];
}

/** The console's settings, for a console process of its own or for the console in this one. */
function consoleEnvironment(config: Config): Record<string, string> {
  const secrets = loadOrCreateSecrets(config.dataDir);
  return {
    NODE_ENV: process.env.NODE_ENV ?? "production",
    PORT: String(config.PORT),
    HOST: config.ECFX_HOST,
    ECFX_API_URL: config.apiUrl,
    ECFX_PUBLIC_URL: config.publicUrl,
    ECFX_SESSION_SECRET: secrets.sessionSecret,
    ECFX_WEB_CONCURRENCY: String(config.ECFX_WEB_CONCURRENCY),
  };
}

function startConsole(config: Config): ChildProcess {
  // Our own server around the build (request checks, headers, a redacted access log).
  const child = spawn(process.execPath, [...consoleServerCommand(), path.join(root, "build", "index.js")], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...consoleEnvironment(config) },
  });
  child.on("exit", (code, signal) => {
    if (!shuttingDown) {
      log.fatal({ exit: signal ?? code }, `The console process stopped (${signal ?? code}).`);
      process.exit(1);
    }
  });
  return child;
}

/** The console and the API in this process, each on its port. */
async function serveConsoleAndApi(config: Config, ctx: ServerContext): Promise<() => Promise<void>> {
  const api = buildApi(ctx);
  await api.listen({ port: config.ECFX_API_PORT, host: config.ECFX_API_HOST });
  // A copy's pages ask its own API, not whichever copy the shared port picks (decision 084).
  const own = isServerCopy() ? await listenOnOwnPort(api) : undefined;
  Object.assign(process.env, consoleEnvironment(config), own ? { ECFX_API_URL: own.url } : {});
  const consoleServer = await startConsoleServer(path.join(root, "build", "index.js"));
  return async () => {
    await new Promise((resolve) => consoleServer.close(resolve));
    await own?.close();
    await api.close();
  };
}

let shuttingDown = false;

async function main(): Promise<void> {
  // Everything this process creates (database, secrets, blobs, filed documents) is readable by
  // its own user only: files 0600, folders 0700.
  process.umask(0o077);
  const config = loadConfig();
  const stops: Array<() => Promise<void>> = [];
  // Built before anything else runs: the build blocks this process while it lasts.
  if (config.ECFX_ROLES.includes("console") && !isServerCopy()) buildConsoleIfNeeded(root, () => log.info("Building the console…"));
  // A process serving both answers pages and the API calls they make without a hop to another
  // process, and its copies then use every core for both (docs/decisions/049-a-process-per-core.md).
  const together = config.ECFX_ROLES.includes("console") && config.ECFX_ROLES.includes("api");

  if (config.ECFX_ROLES.some((r) => r !== "console")) {
    // The demo fetches court documents from a local court simulator unless told otherwise.
    if (config.ECFX_DEMO && !config.ECFX_COURT_BASE_URL && config.ECFX_ROLES.includes("worker")) {
      const simulator = await startCourtSimulator();
      config.ECFX_COURT_BASE_URL = simulator.url;
      // It speaks PACER's sign-in too: a demo firm's PACER credential signs in there, not at PACER.
      config.ECFX_PACER_AUTH_URL ??= simulator.url;
      stops.push(() => simulator.close());
      log.info({ url: simulator.url }, `Court simulator for the demo on ${simulator.url}`);
    }
    const ctx = await openContext(config);
    stops.push(() => ctx.database.close());
    // A secret kept in plain text (its field was declared secret after it was stored) is sealed now.
    if (!isServerCopy()) await resealAll(ctx.database.db, ctx.secretBox, sealedColumns(), true);
    // An installation without demo data (the container) begins with no firm: say how to create one.
    if (config.ECFX_ROLES.includes("api") && !isServerCopy() && !(await ctx.database.db.selectFrom("firm").select("id").limit(1).executeTakeFirst())) {
      log.info(FIRST_FIRM_HINT);
    }
    if (config.ECFX_ROLES.includes("worker")) {
      const worker = startWorker(ctx, PIPELINE_JOBS, config.ECFX_WORKER_CONCURRENCY, {
        // The sweep also issues the invoices of months that have ended (once each, whichever worker comes first).
        requeueStalled: async (c) => {
          await requeueStalledWork(c);
          await issueDueInvoices(c.database.db, c.clock.now());
        },
      });
      stops.unshift(() => worker.stop());
      if (config.ECFX_WORKER_HEARTBEAT_FILE) {
        const heartbeat = startHeartbeat(config.ECFX_WORKER_HEARTBEAT_FILE, () => ctx.database.db.selectFrom("job").select("id").limit(1).execute());
        stops.unshift(() => heartbeat.stop());
      }
      const digests = startDigestScheduler(ctx);
      stops.unshift(() => digests.stop());
      const compaction = startCountCompaction(ctx);
      stops.unshift(async () => compaction.stop());
      const orphans = startOrphanSweep(ctx);
      stops.unshift(async () => orphans.stop());
      log.info({ concurrency: config.ECFX_WORKER_CONCURRENCY }, `ECFX worker running ${config.ECFX_WORKER_CONCURRENCY} jobs at a time`);
    }
    if (config.ECFX_ROLES.includes("smtp")) {
      const smtp = createSmtpListener(ctx, {
        port: config.ECFX_SMTP_PORT,
        host: config.ECFX_SMTP_HOST,
        tls: config.ECFX_SMTP_TLS_KEY && config.ECFX_SMTP_TLS_CERT ? { key: config.ECFX_SMTP_TLS_KEY, cert: config.ECFX_SMTP_TLS_CERT } : undefined,
        users: config.ECFX_SMTP_USERS ? new Map(config.ECFX_SMTP_USERS.split(";").map((pair) => pair.split(":", 2) as [string, string])) : undefined,
        allow: config.ECFX_SMTP_ALLOW.split(",")
          .map((s) => s.trim())
          .filter(Boolean),
        maxConnections: config.ECFX_SMTP_MAX_CONNECTIONS,
        idleTimeoutMs: config.ECFX_SMTP_IDLE_SECONDS * 1000,
        sessionTimeoutMs: config.ECFX_SMTP_SESSION_SECONDS * 1000,
      });
      const port = await listen(smtp, config.ECFX_SMTP_PORT, config.ECFX_SMTP_HOST);
      stops.unshift(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
      log.info({ port }, `SMTP inbox on port ${port}${config.ECFX_DEMO ? ` (demo inbox ${DEMO_INBOX})` : ""}`);
      if (ctx.seededDemo && config.ECFX_DEMO_DATA) {
        const sent = await sendDemoNotices(port);
        log.info({ sent }, `Sent ${sent} demo court notices to ${DEMO_INBOX}`);
      }
    }
    // The API (and with it the console) on every core: this process has migrated and seeded the
    // database; its copies, each with the web roles alone, share the ports. A random port (0)
    // cannot be shared.
    const webRoles = together ? "console,api" : "api";
    const apiCopies = config.ECFX_ROLES.includes("api") && !isServerCopy() && config.ECFX_WEB_CONCURRENCY > 1 && config.ECFX_API_PORT !== 0;
    if (apiCopies) {
      const copies = startServerCopies({
        exec: fileURLToPath(import.meta.url),
        args: [],
        count: config.ECFX_WEB_CONCURRENCY,
        env: {
          ECFX_ROLES: webRoles,
          ...(config.ECFX_COURT_BASE_URL ? { ECFX_COURT_BASE_URL: config.ECFX_COURT_BASE_URL } : {}),
          ...(config.ECFX_PACER_AUTH_URL ? { ECFX_PACER_AUTH_URL: config.ECFX_PACER_AUTH_URL } : {}),
        },
        name: together ? "Console and API" : "API",
      });
      stops.unshift(() => copies.stop());
    } else if (together) {
      stops.unshift(await serveConsoleAndApi(config, ctx));
      log.info({ url: config.apiUrl, database: ctx.database.dialect }, `ECFX API on ${config.apiUrl} (${ctx.database.dialect})`);
    } else if (config.ECFX_ROLES.includes("api")) {
      const api = buildApi(ctx);
      await api.listen({ port: config.ECFX_API_PORT, host: config.ECFX_API_HOST });
      stops.unshift(() => api.close());
      log.info({ url: config.apiUrl, database: ctx.database.dialect }, `ECFX API on ${config.apiUrl} (${ctx.database.dialect})`);
    }
    // A year of demo notices for the dashboard, written once the API answers (the first start seeded it).
    if (config.ECFX_ROLES.includes("api") && ctx.seededDemo && config.ECFX_DEMO_DATA && config.ECFX_DEMO_YEAR) addDemoYearInBackground(ctx);
  }
  if (config.ECFX_ROLES.includes("console") && !isServerCopy()) {
    if (!together) {
      const child = startConsole(config);
      stops.unshift(async () => {
        child.kill("SIGTERM");
      });
    }
    log.info({ url: config.publicUrl }, `ECFX console on ${config.publicUrl}`);
    if (config.ECFX_DEMO) {
      log.info(`Demo sign-in: ${DEMO_USERS[0].email} / ${config.ECFX_DEMO_PASSWORD === "Demo-Passw0rd!" ? "Demo-Passw0rd!" : "(ECFX_DEMO_PASSWORD)"}`);
    }
  }

  const stop = async () => {
    if (shuttingDown) return;
    shuttingDown = true;
    for (const s of stops) await s().catch((e: unknown) => log.error({ err: e }, "could not stop a part"));
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}

main().catch((error: unknown) => {
  // A wrong setting is said as it is; anything else as an error with its stack.
  if (error instanceof ConfigError) log.fatal(error.message);
  else log.fatal({ err: error }, "ECFX could not start");
  process.exit(1);
});
