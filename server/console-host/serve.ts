// The console's HTTP server as a process of its own (console-server.ts), with copies on every core.
import cluster from "node:cluster";
import { fileURLToPath } from "node:url";
import { isServerCopy, startServerCopies } from "../lib/server-copies";
import { startConsoleServer } from "./console-server";
import { logger } from "../../app/common/logger";

/** Copies of this server on every core (ECFX_WEB_CONCURRENCY), sharing its port. */
function startCopies(count: number): void {
  const port = Number(process.env.PORT ?? 3000);
  const copies = startServerCopies({ exec: fileURLToPath(import.meta.url), args: process.argv.slice(2), count, env: {}, name: "Console" });
  cluster.once("listening", () => logger("console").info({ port, processes: count }, `Console listening on port ${port} (${count} processes)`));
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void copies.stop().then(() => process.exit(0)));
}

async function main(): Promise<void> {
  const copies = Number(process.env.ECFX_WEB_CONCURRENCY ?? 1);
  if (!isServerCopy() && copies > 1) return startCopies(copies);
  const server = await startConsoleServer(process.argv[2] ?? "build/index.js");
  if (!isServerCopy()) logger("console").info({ port: Number(process.env.PORT ?? 3000) }, `Console listening on port ${process.env.PORT ?? 3000}`);
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => server.close(() => process.exit(0)));
}

main().catch((error: unknown) => {
  logger("console").fatal({ err: error }, "the console could not start");
  process.exit(1);
});
