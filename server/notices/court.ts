// Which court a notice comes from. The court is read from the message itself,
// in this order: the CM/ECF / ACMS links in the body (document and docket
// links weigh most), the Message-ID and sender domains, and finally the court
// named in the notice heading. A forwarded notice still links to the court's
// server, so the forwarder's own address never decides.
import { courtIdFromHost, findCourtByName } from "../jurisdictions/federal-courts";
import { parseCourtLink } from "./links";
import type { MailContent } from "./mime";
import type { TextLink } from "./text-doc";

// Cheap pre-filter: only links that can point to a court server are parsed.
const COURT_HOST_HINT = /uscourts\.gov|fedcourts\.us|showdoc|safelinks|urldefense/i;

export interface CourtSource {
  court_id: string | null;
  court_host: string | null;
}

export function resolveCourt(links: readonly TextLink[], mail: MailContent | null, headingText: string): CourtSource {
  const score = new Map<string, { weight: number; hosts: Map<string, number> }>();
  for (const link of links.slice(0, 5000)) {
    if (!COURT_HOST_HINT.test(link.href)) continue;
    const parsed = parseCourtLink(link.href);
    if (!parsed.host) continue;
    const id = courtIdFromHost(parsed.host);
    if (!id) continue;
    const weight = parsed.kind === "other" ? 1 : 5;
    const entry = score.get(id) ?? { weight: 0, hosts: new Map<string, number>() };
    entry.weight += weight;
    entry.hosts.set(parsed.host, (entry.hosts.get(parsed.host) ?? 0) + weight);
    score.set(id, entry);
  }
  let best: [string, { weight: number; hosts: Map<string, number> }] | null = null;
  for (const item of score) if (!best || item[1].weight > best[1].weight) best = item;
  if (best) {
    const host = [...best[1].hosts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
    return { court_id: best[0], court_host: host };
  }

  const headerDomains = [mail?.messageId ?? "", ...(mail?.senderAddresses ?? [])];
  for (const value of headerDomains) {
    const id = value ? courtIdFromHost(value.replace(/^.*@/, "")) : undefined;
    if (id) return { court_id: id, court_host: null };
  }
  const named = findCourtByName(headingText);
  return { court_id: named?.id ?? null, court_host: null };
}
