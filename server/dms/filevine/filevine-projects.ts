import { DmsTargetError, type FilingSubject } from "../dms-target";
import type { z } from "zod";
import { FILEVINE_KIND } from "./filevine-http";
import { projectAnswer, projectList } from "./filevine-schemas";
import type { FileVineSession } from "./filevine-session";

// The FileVine project a filing goes to: the project whose number is the firm's matter number,
// else the one whose number, then name, is the matter's reference. FileVine's project list
// filters by number and name (GET /Projects?number=…, ?name=…); the filter may match loosely, so
// only an exact match (ignoring case and surrounding spaces) counts. Archived projects are left out.

export interface FileVineProject {
  id: string;
  name: string;
  number: string;
  /** The project's top documents folder; null when FileVine did not say. */
  rootFolderId: string | null;
  /** FileVine's web address of the project, when it gave one. */
  url: string | null;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function projectOf(item: z.output<typeof projectAnswer>): FileVineProject {
  return {
    id: item.ProjectId,
    name: item.ProjectName || item.ProjectOrClientName,
    number: item.Number,
    rootFolderId: item.RootDocFolderId,
    url: item.ProjectUrl || null,
  };
}

async function projectsWhere(session: FileVineSession, filter: "number" | "name", value: string): Promise<FileVineProject[]> {
  const page = await session.call(
    "/Projects",
    { query: { [filter]: value, excludeArchived: true, limit: 50 } },
    `the project search by ${filter} "${value}"`,
    projectList,
  );
  return page.Items.map(projectOf).filter((project) => same(filter === "number" ? project.number : project.name, value));
}

/** The matter's project; a permanent failure when there is none or several. */
export async function findProject(session: FileVineSession, subject: FilingSubject | undefined): Promise<FileVineProject> {
  const matter = subject?.matter;
  if (!matter) throw new DmsTargetError(FILEVINE_KIND, "The case has no matter: FileVine files documents into the matter's project", false);
  const tries: ["number" | "name", string][] = [];
  if (matter.number) tries.push(["number", matter.number]);
  if (matter.reference) tries.push(["number", matter.reference], ["name", matter.reference]);
  for (const [filter, value] of tries) {
    const found = await projectsWhere(session, filter, value);
    if (found.length > 1) {
      throw new DmsTargetError(
        FILEVINE_KIND,
        `FileVine has ${found.length} projects with ${filter} "${value}": the filing cannot tell which one is the matter's`,
        false,
      );
    }
    if (found.length === 1) return found[0]!;
  }
  const named = [matter.number && `number "${matter.number}"`, matter.reference && `reference "${matter.reference}"`].filter(Boolean).join(" or ");
  throw new DmsTargetError(FILEVINE_KIND, `FileVine has no project for matter ${named || matter.name}`, false);
}

/** The project an earlier attempt chose, by its id. */
export async function projectById(session: FileVineSession, id: string): Promise<FileVineProject> {
  return projectOf(await session.call(`/Projects/${encodeURIComponent(id)}`, {}, `to read project ${id}`, projectAnswer));
}
