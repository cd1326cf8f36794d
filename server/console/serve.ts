// The console's HTTP server: Remix behind the checks every request passes first. It replaces
// remix-serve, which offers no place for them (docs/decisions/022-console-request-checks.md).
import { randomBytes } from "node:crypto";
import path from "node:path";
import cluster from "node:cluster";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type ServerBuild, createRequestHandler, installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { message } from "../lib/messages";
import { isServerCopy, startServerCopies } from "../lib/server-copies";
import { sendFetchResponse, toFetchRequest } from "./fetch-bridge";
import { requestLogger } from "./request-log";
import { withSecurityHeaders } from "./security-headers";
import { isCrossSiteWrite } from "./same-origin";

const DEFAULT_TRUSTED_PROXIES = "127.0.0.1,::1,::ffff:127.0.0.1";

const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** Copies of this server on every core (ECFX_WEB_CONCURRENCY), sharing its port. */
function startCopies(count: number): void {
  const port = Number(process.env.PORT ?? 3000);
  const copies = startServerCopies({ exec: fileURLToPath(import.meta.url), args: process.argv.slice(2), count, env: {}, name: "Console" });
  cluster.once("listening", () => console.log(`Console listening on port ${port} (${count} processes)`));
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void copies.stop().then(() => process.exit(0)));
}

async function main(): Promise<void> {
  const copies = Number(process.env.ECFX_WEB_CONCURRENCY ?? 1);
  if (!isServerCopy() && copies > 1) return startCopies(copies);
  const buildPath = path.resolve(process.argv[2] ?? "build/index.js");
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  installGlobals({ nativeFetch: build.future.v3_singleFetch });

  const publicHost = process.env.ECFX_PUBLIC_URL ? new URL(process.env.ECFX_PUBLIC_URL).host.toLowerCase() : undefined;
  const app = express();
  app.disable("x-powered-by");
  // X-Forwarded-For (and -Proto, -Host) are believed only from these; req.ip is then the client.
  app.set("trust proxy", list(process.env.ECFX_TRUSTED_PROXIES ?? DEFAULT_TRUSTED_PROXIES));
  app.use(compression());

  app.use(requestLogger(process.env.LOG_LEVEL));

  app.use((req, res, next) => {
    const ownHosts = new Set([req.headers.host?.toLowerCase(), publicHost, req.get("x-forwarded-host") && req.hostname].filter((h): h is string => Boolean(h)));
    if (isCrossSiteWrite(req.method, req.headers, ownHosts)) {
      res.status(403).set("X-Content-Type-Options", "nosniff").type("text/plain; charset=utf-8").send(message("errors:crossSiteRequest"));
      return;
    }
    next();
  });

  app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
  app.use(express.static("public", { maxAge: "1h" }));

  const handle = createRequestHandler(build, process.env.NODE_ENV);
  app.all("*", async (req, res, next) => {
    try {
      const nonce = randomBytes(16).toString("base64");
      const response = await handle(toFetchRequest(req, res), { cspNonce: nonce });
      await sendFetchResponse(res, withSecurityHeaders(response, nonce));
    } catch (error) {
      next(error);
    }
  });

  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST;
  const server = host ? app.listen(port, host) : app.listen(port);
  if (!isServerCopy()) server.on("listening", () => console.log(`Console listening on port ${port}`));
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => server.close(() => process.exit(0)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
