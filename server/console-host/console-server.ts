// The console's HTTP server: Remix behind the checks every request passes first. It replaces
// remix-serve, which offers no place for them (docs/decisions/022-console-request-checks.md).
// It runs in a process of its own (serve.ts) or beside the API in the product's own processes.
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type ServerBuild, createRequestHandler, installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { consoleLoadContext } from "./load-context";
import { message } from "../lib/messages";
import { sendFetchResponse, toFetchRequest } from "./fetch-bridge";
import { requestLogger } from "./request-log";
import { redactUrl } from "../lib/redact";
import { logger } from "../../app/common/logger";
import { withSecurityHeaders } from "./security-headers";
import { isCrossSiteWrite } from "./same-origin";

/** Answers a request and says which session cookie a refresh of the user's tokens wrote meanwhile. */
type RefreshedSessionRunner = (answer: () => Promise<Response>) => Promise<{ response: Response; sessionCookie?: string }>;

/** Where a firm's SAML identity provider posts its answers (decision 099). */
const IDP_POSTS = new Set(["/auth/saml/acs", "/auth/saml/slo"]);

const DEFAULT_TRUSTED_PROXIES = "127.0.0.1,::1,::ffff:127.0.0.1";

const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The files of `dir` (the favicon, the template editor's Monaco). Its top-level names are read
 * once, so a page's address goes straight to Remix instead of costing a look at the disk.
 */
function publicFiles(dir: string): express.RequestHandler {
  const names = new Set(fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  const serve = express.static(dir, { maxAge: "1h" });
  return (req, res, next) => (names.has(req.path.split("/")[1] ?? "") ? serve(req, res, next) : next());
}

/** Level 4: about half the CPU of the default 6 on a list page, for about 5 % more bytes. */
export const COMPRESSION_LEVEL = 4;

/** Serves the console build at `buildPath` on PORT (and HOST) of the environment; resolves once it listens. */
export async function startConsoleServer(buildPath: string): Promise<Server> {
  const build = (await import(pathToFileURL(path.resolve(buildPath)).href)) as ServerBuild;
  installGlobals({ nativeFetch: build.future.v3_singleFetch });

  const publicHost = process.env.ECFX_PUBLIC_URL ? new URL(process.env.ECFX_PUBLIC_URL).host.toLowerCase() : undefined;
  const app = express();
  app.disable("x-powered-by");
  // X-Forwarded-For (and -Proto, -Host) are believed only from these; req.ip is then the client.
  app.set("trust proxy", list(process.env.ECFX_TRUSTED_PROXIES ?? DEFAULT_TRUSTED_PROXIES));
  app.use(compression({ level: COMPRESSION_LEVEL }));

  app.use(requestLogger(logger("console")));

  app.use((req, res, next) => {
    const ownHosts = new Set([req.headers.host?.toLowerCase(), publicHost, req.get("x-forwarded-host") && req.hostname].filter((h): h is string => Boolean(h)));
    // The identity provider posts sign-in and logout from its own site; what it posts is signed.
    if (!IDP_POSTS.has(req.path) && isCrossSiteWrite(req.method, req.headers, ownHosts)) {
      res.status(403).set("X-Content-Type-Options", "nosniff").type("text/plain; charset=utf-8").send(message("errors:crossSiteRequest"));
      return;
    }
    next();
  });

  app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
  app.use(publicFiles("public"));

  const handle = createRequestHandler(build, process.env.NODE_ENV);
  // The build's own instance, which its loaders tell of a refreshed session (decision 142).
  const { withRefreshedSession } = build.entry.module as { withRefreshedSession?: RefreshedSessionRunner };
  if (!withRefreshedSession) throw new Error("The console build's entry does not export withRefreshedSession");
  app.all("*", async (req, res, next) => {
    try {
      const nonce = randomBytes(16).toString("base64");
      const { response, sessionCookie } = await withRefreshedSession(() => handle(toFetchRequest(req, res), consoleLoadContext(req.path, nonce)));
      await sendFetchResponse(res, withSecurityHeaders(response, nonce), sessionCookie);
    } catch (error) {
      next(error);
    }
  });

  // An error no route answered: one structured line (its request's id included), then a plain 500.
  app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    logger("console").error({ err: error, reqId: res.getHeader("X-Request-Id"), method: req.method, url: redactUrl(req.originalUrl) }, "request failed");
    if (res.headersSent) res.destroy();
    else res.status(500).type("text/plain; charset=utf-8").send(message("errors:internal"));
  });

  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST;
  const server = host ? app.listen(port, host) : app.listen(port);
  // Rejects when the port cannot be taken.
  await once(server, "listening");
  return server;
}
