import { DmsTargetError, type FilingSubject } from "../dms-target";
import { CLIO_KIND } from "./clio-hosts";
import { z } from "zod";
import { listAll } from "./clio-lists";
import type { ClioSession } from "./clio-session";

// Which Clio matter a filing goes to. The firm's matter number is Clio's display_number
// ("00042-Smith"); Clio's `query` is a wildcard search over display_number, number and
// description, so its answers are matched exactly here. When the number finds nothing, the
// firm's matter reference is tried: Clio's matter id, or a display number.

// The matter's own folder (Matter.folder): what Clio names as the parent of the matter's top-level items.
const matterSchema = z.object({
  id: z.number(),
  display_number: z.string(),
  description: z.string().nullish(),
  folder: z.object({ id: z.number() }).passthrough(),
});

export type ClioMatter = z.infer<typeof matterSchema>;

const FIELDS = "id,display_number,description,folder{id}";

async function byDisplayNumber(session: ClioSession, number: string): Promise<ClioMatter | null> {
  const found = await listAll(session, "/api/v4/matters.json", { query: number, fields: FIELDS }, `the search for matter ${number}`, matterSchema);
  return found.find((matter) => matter.display_number === number) ?? null;
}

export async function byId(session: ClioSession, id: string): Promise<ClioMatter | null> {
  const found = await listAll(session, "/api/v4/matters.json", { ids: id, fields: FIELDS }, `the search for matter ${id}`, matterSchema);
  return found.find((matter) => String(matter.id) === id) ?? null;
}

/** The filing's matter in Clio; a permanent error naming it when Clio has none. */
export async function findMatter(session: ClioSession, subject: FilingSubject | undefined): Promise<ClioMatter> {
  const matter = subject?.matter;
  if (!matter || (!matter.number && !matter.reference)) {
    throw new DmsTargetError(CLIO_KIND, "The case belongs to no matter: Clio files documents into a matter", false);
  }
  if (matter.number) {
    const found = await byDisplayNumber(session, matter.number);
    if (found) return found;
  }
  const reference = matter.reference?.trim();
  if (reference) {
    const found = (/^\d+$/.test(reference) ? await byId(session, reference) : null) ?? (await byDisplayNumber(session, reference));
    if (found) return found;
  }
  const named = [matter.number && `number ${matter.number}`, reference && `reference ${reference}`].filter(Boolean).join(" or ");
  throw new DmsTargetError(CLIO_KIND, `Clio has no matter with ${named} (${matter.name})`, false);
}
