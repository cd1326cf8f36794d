import type { NetDocumentsApi } from "./api";
import { type NetDocumentsItem, item, listing } from "./answers";
import { netDocumentsName, sameName } from "./names";

// A cabinet's folders as NetDocuments lists them: the cabinet's top-level folders
// (GET /v1/Cabinet/{cabinet}/folders) and a folder's content, documents and subfolders alike
// (GET /v1/Folder/{id}, paged by `next`). A folder is created with POST /v1/Folder under the
// cabinet or a parent folder or workspace. Filing into matter workspaces, the root is the
// workspace of the client and matter (GET /v1/Workspace/{cabinet}/{client}/{matter}/info) and
// its content is read as a container's. Items are NetDocuments' standard attributes; a folder's
// extension is "ndfld", a workspace's "ndws".

export const FOLDER_EXTENSION = "ndfld";
/** A folder with more pages than this is not searched further (a runaway listing). */
const MAX_PAGES = 200;

export type { NetDocumentsItem } from "./answers";

export interface ResolvedFolder {
  /** The folder's id; null for the cabinet itself (no folder segments). */
  id: string | null;
  /** Whether a folder was created on the way. */
  created: boolean;
}

/** The client and matter a workspace is known by (the cabinet's workspace attributes). */
export interface WorkspaceKey {
  client: string;
  matter: string;
}

/** The workspace of `key` in `cabinet`, or null when NetDocuments has none. */
export async function findWorkspace(api: NetDocumentsApi, cabinet: string, key: WorkspaceKey): Promise<NetDocumentsItem | null> {
  const path = `/v1/Workspace/${[cabinet, key.client, key.matter].map(encodeURIComponent).join("/")}/info`;
  return api.json(`finding the workspace of client ${key.client} matter ${key.matter}`, path, item, { notFound: true });
}

export class NetDocumentsFolders {
  constructor(
    private readonly api: NetDocumentsApi,
    readonly cabinet: string,
    /** The workspace folders are filed below; the cabinet itself when null. */
    private readonly root: NetDocumentsItem | null = null,
  ) {}

  /** The workspace's id when the folders are a workspace's; null for the cabinet's. */
  get rootId(): string | null {
    return this.root?.id ?? null;
  }

  /** The folders directly below the root: the cabinet's top-level folders, or the workspace's. */
  async topLevel(): Promise<NetDocumentsItem[]> {
    if (this.root) return (await this.content(this.root.id, this.root.name)).filter((item) => item.extension === FOLDER_EXTENSION);
    const answer = await this.api.json(`listing the folders of cabinet ${this.cabinet}`, `/v1/Cabinet/${encodeURIComponent(this.cabinet)}/folders`, listing);
    return answer.items.filter((item) => item.extension === "" || item.extension === FOLDER_EXTENSION);
  }

  /** Everything in a folder (documents and subfolders), every page; the cabinet's folders for null. */
  async content(folderId: string | null, label: string): Promise<NetDocumentsItem[]> {
    if (folderId === null) {
      if (!this.root) return this.topLevel();
      folderId = this.root.id;
    }
    const items: NetDocumentsItem[] = [];
    let next: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query: Record<string, string> = { $select: "standardAttributes" };
      if (next) query.$skiptoken = next;
      const answer = await this.api.json(`listing folder ${label}`, `/v1/Folder/${encodeURIComponent(folderId)}`, listing, { query });
      items.push(...answer.items);
      if (!answer.next) return items;
      next = answer.next;
    }
    return items;
  }

  /**
   * The folder the segments name, below the cabinet. With `create`, missing folders are made one
   * level at a time; without it, the first missing folder's path comes back as `missing`.
   */
  async resolve(segments: string[], create: boolean): Promise<ResolvedFolder | { missing: string }> {
    let id: string | null = null;
    let created = false;
    const path: string[] = [];
    for (const segment of segments.map((s) => netDocumentsName(s))) {
      path.push(segment);
      const label = path.join("/");
      const children: NetDocumentsItem[] =
        id === null ? await this.topLevel() : (await this.content(id, label)).filter((item) => item.extension === FOLDER_EXTENSION);
      const found = children.find((item) => sameName(item.name, segment));
      if (found) {
        id = found.id;
        continue;
      }
      if (!create) return { missing: label };
      id = await this.create(segment, id, label);
      created = true;
    }
    return { id, created };
  }

  private async create(name: string, parent: string | null, label: string): Promise<string> {
    const form: Record<string, string> = { name, cabinet: this.cabinet };
    const container = parent ?? this.root?.id ?? null;
    if (container !== null) form.parent = container;
    return (await this.api.json(`creating folder ${label}`, "/v1/Folder", item, { form })).id;
  }
}
