import { DmsTargetError } from "../dms-target";
import type { GraphApi } from "./graph-api";
import { removeItem, uploadFile } from "./graph-upload";
import { type LibraryUrl, encodePath } from "./library-url";
import {
  type DriveItem,
  type Library,
  anyAnswer,
  childrenSchema,
  columnsSchema,
  driveItemSchema,
  drivesSchema,
  listSchema,
  siteSchema,
  siteUsersSchema,
} from "./graph-types";
import type { LibraryEntry, SharePointLibrary } from "./sharepoint-target-core";

// The credential's document library in Graph's terms (a site, a drive, the list behind it and a
// root folder) and the folders below it: looked up by path, created when missing with
// conflictBehavior "fail" (a 409 means another filing created it first, which is as good).
// What ties a document to its filing lives in a column of the library (FILING_COLUMN), created
// when missing: Graph documents driveItem.description for OneDrive Personal only.

const ITEM_PROPERTIES = "id,name,webUrl,file,folder,size";

/** The library column that holds the firm's signature and the filing's reference. */
export const FILING_COLUMN = "ECFXFiling";

/** A library column as the filing needs it: whether it takes people, and how many. */
interface Column {
  name: string;
  person: boolean;
  multiple: boolean;
}

const lastSegment = (webUrl: string | null | undefined) => decodeURIComponent(new URL(webUrl ?? "http://x/").pathname.split("/").filter(Boolean).pop() ?? "");

export async function resolveLibrary(api: GraphApi, url: LibraryUrl): Promise<Library> {
  const sitePath = url.sitePath ? `/sites/${url.host}:/${encodePath(url.sitePath.split("/").filter(Boolean))}` : `/sites/${url.host}`;
  const site = await api.json({ method: "GET", path: sitePath, action: `finding site ${url.origin}${url.sitePath}` }, siteSchema);
  const drives = await api.json(
    {
      method: "GET",
      path: `/sites/${encodeURIComponent(site.id)}/drives`,
      action: "listing the site's libraries",
    },
    drivesSchema,
  );
  const wanted = url.library.toLowerCase();
  const drive = wanted
    ? drives.value.find((candidate) => lastSegment(candidate.webUrl).toLowerCase() === wanted || candidate.name.toLowerCase() === wanted)
    : (drives.value.find((candidate) => lastSegment(candidate.webUrl).toLowerCase() === "shared documents") ?? drives.value[0]);
  if (!drive) throw new DmsTargetError(api.kind, `SharePoint has no library ${url.library || "of documents"} on site ${site.webUrl ?? url.sitePath}`, false);
  const list = await api.json(
    {
      method: "GET",
      path: `/drives/${encodeURIComponent(drive.id)}/list?$select=id`,
      action: "finding the library's list",
    },
    listSchema,
  );
  const libraryPath = `${url.sitePath}/${lastSegment(drive.webUrl) || drive.name}`;
  const root = url.folders;
  return {
    siteName: site.displayName ?? url.sitePath,
    siteId: site.id,
    listId: list.id,
    driveId: drive.id,
    driveName: drive.name,
    root,
    rootPathLength: [libraryPath, ...root].join("/").length,
  };
}

/** Graph's address of a path inside the drive: the root itself, or "items/root:/a/b:". */
export function itemPath(library: Library, segments: string[]): string {
  const drive = `/drives/${encodeURIComponent(library.driveId)}/items/root`;
  return segments.length ? `${drive}:/${encodePath(segments)}:` : drive;
}

export async function findItem(api: GraphApi, library: Library, segments: string[]): Promise<DriveItem | null> {
  return api.find(
    { method: "GET", path: `${itemPath(library, segments)}?$select=${ITEM_PROPERTIES}`, action: `looking up /${segments.join("/")}` },
    driveItemSchema,
  );
}

/** The item with its row's filing column, which says which filing stored it. */
async function findWithFiling(api: GraphApi, library: Library, segments: string[]): Promise<DriveItem | null> {
  return api.find(
    {
      method: "GET",
      path: `${itemPath(library, segments)}?$select=${ITEM_PROPERTIES}&$expand=listItem($expand=fields($select=${FILING_COLUMN}))`,
      action: `looking up /${segments.join("/")}`,
    },
    driveItemSchema,
  );
}

/**
 * The folder at `segments` (below the drive's root), created segment by segment where missing.
 * Says whether it created any, so the caller waits for SharePoint to settle only then.
 */
export async function ensureFolder(api: GraphApi, library: Library, segments: string[]): Promise<{ id: string; created: boolean }> {
  let parent = await findItem(api, library, []);
  if (!parent) throw new DmsTargetError(api.kind, `SharePoint library ${library.driveName} has no root folder`, false);
  let created = false;
  for (let depth = 1; depth <= segments.length; depth++) {
    const path = segments.slice(0, depth);
    const existing = await findItem(api, library, path);
    if (existing) {
      parent = existing;
      continue;
    }
    const response = await api.send({
      method: "POST",
      path: `/drives/${encodeURIComponent(library.driveId)}/items/${encodeURIComponent(parent.id)}/children`,
      json: { name: path[depth - 1], folder: {}, "@microsoft.graph.conflictBehavior": "fail" },
      action: `creating folder /${path.join("/")}`,
    });
    if (response.status === 409) {
      await response.body?.cancel();
      const raced = await findItem(api, library, path);
      if (!raced) throw new DmsTargetError(api.kind, `SharePoint says /${path.join("/")} exists but does not show it`, true);
      parent = raced;
      continue;
    }
    parent = await api.read(response, `creating folder /${path.join("/")}`, driveItemSchema);
    created = true;
  }
  if (!parent.folder) throw new DmsTargetError(api.kind, `/${segments.join("/")} in SharePoint is a file, not a folder`, false);
  return { id: parent.id, created };
}

/** The credential's library as the filing protocol uses it, in Graph calls. */
export class GraphLibrary implements SharePointLibrary<DriveItem> {
  private resolved?: Promise<Library>;
  private columns?: Promise<Map<string, Column>>;

  constructor(
    private readonly api: GraphApi,
    private readonly url: LibraryUrl,
  ) {}

  library(): Promise<Library> {
    // A failed lookup is not kept: the next filing asks again.
    this.resolved ??= resolveLibrary(this.api, this.url).catch((error: unknown) => {
      this.resolved = undefined;
      throw error;
    });
    return this.resolved;
  }

  async root(): Promise<{ folders: string[]; pathLength: number }> {
    const library = await this.library();
    return { folders: library.root, pathLength: library.rootPathLength };
  }

  async find(path: string[]): Promise<LibraryEntry | null> {
    const item = await findWithFiling(this.api, await this.library(), path);
    const filing = item?.listItem?.fields?.[FILING_COLUMN];
    return item && { isFile: Boolean(item.file), link: item.webUrl ?? undefined, description: typeof filing === "string" ? filing : null };
  }

  private async readColumns(library: Library): Promise<Map<string, Column>> {
    const answer = await this.api.json(
      {
        method: "GET",
        path: `/sites/${encodeURIComponent(library.siteId)}/lists/${encodeURIComponent(library.listId)}/columns?$select=name,personOrGroup`,
        action: "reading the library's columns",
      },
      columnsSchema,
    );
    return new Map(
      answer.value.map((column) => [
        column.name,
        { name: column.name, person: Boolean(column.personOrGroup), multiple: Boolean(column.personOrGroup?.allowMultipleSelection) },
      ]),
    );
  }

  /** The library's columns, the filing column created first when it is missing (once per client). */
  private libraryColumns(): Promise<Map<string, Column>> {
    this.columns ??= (async () => {
      const library = await this.library();
      const columns = await this.readColumns(library);
      if (columns.has(FILING_COLUMN)) return columns;
      const response = await this.api.send({
        method: "POST",
        path: `/sites/${encodeURIComponent(library.siteId)}/lists/${encodeURIComponent(library.listId)}/columns`,
        json: {
          name: FILING_COLUMN,
          displayName: "ECFX filing",
          description: "The firm's signature and the ECFX filing that stored this document",
          text: { allowMultipleLines: true },
        },
        action: `creating the library column ${FILING_COLUMN}`,
      });
      if (response.ok) {
        await response.body?.cancel();
        return this.readColumns(library);
      }
      // Another filing may have created it meanwhile: then it is there now.
      const refused = await this.api.read(response, `creating the library column ${FILING_COLUMN}`, anyAnswer).catch((error: unknown) => error);
      const again = await this.readColumns(library);
      if (again.has(FILING_COLUMN)) return again;
      throw refused;
    })().catch((error: unknown) => {
      this.columns = undefined;
      throw error;
    });
    return this.columns;
  }

  /**
   * The site user a person column's value names (by e-mail or display name), as its lookup id;
   * undefined when the site has none. Read from the site's hidden User Information List, its
   * first page of answers (Graph's default page of list items).
   */
  private async personId(library: Library, value: string): Promise<string | undefined> {
    const users = await this.api.json(
      {
        method: "GET",
        path: `/sites/${encodeURIComponent(library.siteId)}/lists/${encodeURIComponent("User Information List")}/items?$expand=fields($select=Title,EMail)`,
        action: "looking up the site's people",
      },
      siteUsersSchema,
    );
    const wanted = value.trim().toLowerCase();
    return users.value.find((user) => user.fields?.EMail?.toLowerCase() === wanted || user.fields?.Title?.toLowerCase() === wanted)?.id;
  }

  async ensureFolder(path: string[]): Promise<{ created: boolean }> {
    return ensureFolder(this.api, await this.library(), path);
  }

  async upload(path: string[], bytes: Buffer, contentType: string, location: string): Promise<DriveItem> {
    const library = await this.library();
    const parent = await findItem(this.api, library, path.slice(0, -1));
    if (!parent?.folder) throw new DmsTargetError(this.api.kind, `The folder of ${location} is missing in SharePoint`, true);
    return uploadFile(this.api, { library, parentId: parent.id, name: path[path.length - 1] ?? "", location }, bytes, contentType);
  }

  /**
   * Sets the columns and the filing column in one update. A person column takes the site user
   * the value names, as a lookup id (Graph's "{column}LookupId"); a value that names no site user
   * leaves it empty, since a person column cannot hold text.
   */
  async describe(item: DriveItem, fields: Record<string, string>, description: string, location: string): Promise<void> {
    const library = await this.library();
    const columns = await this.libraryColumns();
    const values: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(fields)) {
      const column = columns.get(name);
      if (!column?.person) {
        values[name] = value;
        continue;
      }
      const id = await this.personId(library, value);
      if (id === undefined) continue;
      if (column.multiple) {
        values[`${name}LookupId@odata.type`] = "Collection(Edm.String)";
        values[`${name}LookupId`] = [id];
      } else values[`${name}LookupId`] = id;
    }
    values[FILING_COLUMN] = description;
    const address = `/drives/${encodeURIComponent(library.driveId)}/items/${encodeURIComponent(item.id)}`;
    await this.api.json({ method: "PATCH", path: `${address}/listItem/fields`, json: values, action: `setting the properties of ${location}` }, anyAnswer);
  }

  async remove(item: DriveItem): Promise<void> {
    await removeItem(this.api, await this.library(), item.id);
  }

  linkOf(item: DriveItem): string | undefined {
    return item.webUrl ?? undefined;
  }

  connectionSteps() {
    return [
      {
        step: "Find the library",
        run: async () => {
          const library = await this.library();
          return `Found library ${library.driveName} on site ${library.siteName}`;
        },
      },
      {
        step: "List the root folder",
        run: async () => {
          const library = await this.library();
          const root = await findItem(this.api, library, library.root);
          if (!root?.folder) throw new DmsTargetError(this.api.kind, `/${library.root.join("/")} is not a folder in library ${library.driveName}`, false);
          const children = await this.api.json(
            {
              method: "GET",
              path: `/drives/${encodeURIComponent(library.driveId)}/items/${encodeURIComponent(root.id)}/children?$select=id,name`,
              action: "listing the root folder",
            },
            childrenSchema,
          );
          return `Listed ${children.value.length} items in /${[library.driveName, ...library.root].join("/")}`;
        },
      },
      {
        step: "Read the library's columns",
        run: async () => {
          const columns = await this.readColumns(await this.library());
          return columns.has(FILING_COLUMN)
            ? `The library has the column ${FILING_COLUMN} for filing references`
            : `The library has no column ${FILING_COLUMN} yet: the first filing creates it, which needs the app to manage the site's lists`;
        },
      },
    ];
  }
}
