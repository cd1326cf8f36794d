import { cases } from "./cases";
import { clients } from "./clients";
import { ecfxJurisdictions, ignoredCases, judges, jurisdictions } from "./courts";
import { envelopes, inboxItems } from "./inbox";
import { matters } from "./matters";
import { departments, locations, practiceGroups } from "./organisation";
import { abbreviations, users } from "./people";
import { timekeepers } from "./timekeepers";
import type { ResourceDef } from "./types";

/** Every entity of the registry, by key. */
export const REGISTRY = {
  clients,
  matters,
  cases,
  timekeepers,
  jurisdictions,
  "ecfx-jurisdictions": ecfxJurisdictions,
  judges,
  departments,
  locations,
  "practice-groups": practiceGroups,
  "ignored-cases": ignoredCases,
  users,
  abbreviations,
  "inbox-items": inboxItems,
  "ecfx-notification": envelopes,
} satisfies Record<string, ResourceDef>;

export type RegistryKey = keyof typeof REGISTRY;

export function findResource(key: string): ResourceDef | undefined {
  return (REGISTRY as Record<string, ResourceDef>)[key];
}
