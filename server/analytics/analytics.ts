import { sql } from "kysely";
import type { BrowserIdentity } from "../../app/common/analytics-identity";
import type { Config } from "../config";
import type { Database } from "../db/database";
import type { Clock } from "../lib/clock";
import { type AnalyticsSink, OFF, mixpanelSink } from "./sink";

// Spec §2, §7, §9: 'View Page' on every navigation but sign-in, the user identified (e-mail and
// name set once) and the firm registered; one of two project tokens, chosen by whether the host's
// second-to-last label is the production marker; a user who opted out is never sent.

export const OPT_OUT_KEY = "analytics";

/** The project token for the console's host, or none (then nothing is sent). */
export function tokenForHost(config: Config, host: string): string | undefined {
  const labels = host.toLowerCase().replace(/:\d+$/, "").split(".");
  const production = labels.length >= 2 && labels[labels.length - 2] === config.ECFX_ANALYTICS_PRODUCTION_MARKER.toLowerCase();
  return production ? config.ECFX_ANALYTICS_TOKEN : config.ECFX_ANALYTICS_TOKEN_DEV;
}

export function sinkForHost(config: Config, clock: Clock, host: string): AnalyticsSink {
  const token = tokenForHost(config, host);
  return token ? mixpanelSink(config.ECFX_ANALYTICS_URL, token, () => clock.now()) : OFF;
}

/** The user's own choice, kept with their preferences ({ "optOut": true }). */
export async function optedOut(database: Database, userId: string): Promise<boolean> {
  const found = await sql<{ value: string }>`select value from user_preference where user_id = ${userId} and key = ${OPT_OUT_KEY}`.execute(database.db);
  const row = found.rows[0];
  if (!row) return false;
  try {
    return (JSON.parse(row.value) as { optOut?: unknown } | null)?.optOut === true;
  } catch {
    return false;
  }
}

/** Users identified by this process: identify goes once per user and process, not on every page. */
const identified = new Set<string>();

/** Whether the console should report this user's page views on this host at all. */
export async function reportsPageViews(deps: { config: Config; database: Database }, host: string, userId: string): Promise<boolean> {
  return Boolean(tokenForHost(deps.config, host)) && !(await optedOut(deps.database, userId));
}

/**
 * Sends 'View Page', after identify when it is due: once per browser identity for a page view a
 * browser reports with its identity, else once per user and process. Answers whether the
 * identity is identified now (false when nothing was sent: no token, or the user opted out).
 */
export async function recordPageView(
  deps: { config: Config; clock: Clock; database: Database },
  view: { host: string; userId: string; email: string; name: string; firm: string; title: string; path: string },
  browser?: BrowserIdentity,
): Promise<boolean> {
  const sink = sinkForHost(deps.config, deps.clock, view.host);
  if (sink === OFF || (await optedOut(deps.database, view.userId))) return browser?.identified ?? false;
  const key = `${tokenForHost(deps.config, view.host)}|${view.userId}`;
  if (browser ? !browser.identified : !identified.has(key)) {
    await sink.identify({ distinctId: view.userId, email: view.email, name: view.name });
    identified.add(key);
  }
  await sink.pageView({ distinctId: view.userId, title: view.title, path: view.path, firm: view.firm });
  return true;
}
