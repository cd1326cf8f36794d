import type { Config } from "../config";
import { OutboundGuard, OutboundRefusedError, type OutboundPurpose } from "../outbound/guard";

// A webhook may call its own URL's host and nothing else; the operator's named origins (a local
// receiver of tests and the demo) are the only private or plain-http addresses it may reach.

const guards = new WeakMap<Config, OutboundGuard>();

/** One guard per configuration, shared by saving (the static check) and delivering. */
export function webhookGuard(config: Config): OutboundGuard {
  let guard = guards.get(config);
  if (!guard) {
    guard = new OutboundGuard({ allowedOrigins: config.ECFX_WEBHOOK_ALLOWED_ORIGINS, allowedRanges: config.ECFX_OUTBOUND_ALLOW });
    guards.set(config, guard);
  }
  return guard;
}

const bareHost = (url: URL) =>
  url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();

/** The purpose of one webhook's calls: its URL's host only. */
export function webhookPurpose(url: URL): OutboundPurpose {
  const own = bareHost(url);
  return { name: "webhook", hostAllowed: (host) => host === own };
}

/** Why a webhook URL may not be saved ("notHttps", "private"), or null when it may. Static: no name is resolved. */
export function webhookUrlRefusal(guard: OutboundGuard, text: string): "invalid" | "notHttps" | "private" | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "invalid";
  }
  if (guard.isOperatorOrigin(url)) return null;
  if (url.protocol !== "https:") return "notHttps";
  // A name every system resolves to itself is as local as 127.0.0.1.
  const host = bareHost(url);
  if (host === "localhost" || host.endsWith(".localhost")) return "private";
  if (url.username || url.password) return "invalid";
  try {
    guard.check(url, webhookPurpose(url));
    return null;
  } catch (error) {
    if (error instanceof OutboundRefusedError) return "private";
    throw error;
  }
}
