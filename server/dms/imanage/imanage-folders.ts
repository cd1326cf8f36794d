import { DmsTargetError } from "../dms-target";
import type { IManageSession } from "./imanage-session";
import { children, created as createdAnswer, workspaces } from "./imanage-answers";

// Folders in an iManage library. A credential files below one folder (folder_id), or, with
// matter workspace search, below the folders of the matter's workspace. Missing folders are
// created one level at a time: POST …/folders/{id}/subfolders below a folder, POST
// …/workspaces/{id}/folders directly in a workspace.

/** A folder or a workspace, by its iManage id ("ACTIVE!456"). */
export interface FolderRef {
  kind: "folders" | "workspaces";
  id: string;
}

const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: "accent" }) === 0;

export class IManageFolders {
  constructor(
    private readonly session: IManageSession,
    private readonly kind: string,
    private readonly library: string,
  ) {}

  /** The workspace whose `field` (custom1…custom30, or a profile field) is the matter number. */
  async matterWorkspace(field: string, matter: string): Promise<FolderRef> {
    const path = await this.session.libraryPath(this.library, "/workspaces");
    const found = (await this.session.call(path, { query: { [field]: matter, limit: 25 } }, "the workspace search", workspaces)).data;
    // The field must be there and be the matter: a workspace without it (or a search that did
    // not filter on it) would put the document in another matter's workspace.
    const matches = found.filter((entry) => entry[field] !== undefined && entry[field] !== null && String(entry[field]) === matter);
    if (matches.length === 0) throw new DmsTargetError(this.kind, `iManage has no workspace in ${this.library} whose ${field} is ${matter}`, false);
    if (matches.length > 1)
      throw new DmsTargetError(
        this.kind,
        `iManage has ${matches.length} workspaces in ${this.library} whose ${field} is ${matter}: the matter's documents have no single place`,
        false,
      );
    return { kind: "workspaces", id: matches[0]!.id };
  }

  /** How many workspaces the library shows the user (a first page of them, for a connection test). */
  async workspaceCount(): Promise<number> {
    const path = await this.session.libraryPath(this.library, "/workspaces");
    return (await this.session.call(path, { query: { limit: 25 } }, "the workspace listing", workspaces)).data.length;
  }

  /** The folders directly inside a folder or workspace, by name. */
  async children(parent: FolderRef): Promise<{ id: string; name: string }[]> {
    const path = await this.session.libraryPath(this.library, `/${parent.kind}/${encodeURIComponent(parent.id)}/children`);
    return (await this.session.call(path, {}, "the folder lookup", children)).data
      .filter((entry) => entry.wstype !== "document")
      .map((entry) => ({ id: entry.id, name: entry.name }));
  }

  /** Creates a folder inside a folder or workspace; answers its id. */
  async create(parent: FolderRef, name: string, defaultSecurity: string): Promise<string> {
    const suffix = parent.kind === "workspaces" ? "/folders" : "/subfolders";
    const path = await this.session.libraryPath(this.library, `/${parent.kind}/${encodeURIComponent(parent.id)}${suffix}`);
    const body = JSON.stringify({ name, default_security: defaultSecurity || "inherit" });
    const request = { method: "POST", headers: { "content-type": "application/json" }, body };
    return (await this.session.call(path, request, "the folder creation", createdAnswer)).data.id;
  }

  /**
   * The folder at `segments` below `root`. Looking only (`create` false), a missing folder answers
   * null; creating, every missing level is made and `created` says whether any was.
   */
  async walk(
    root: FolderRef,
    segments: string[],
    options: { create: boolean; defaultSecurity: string },
  ): Promise<{ folder: FolderRef | null; created: boolean }> {
    let current = root;
    let created = false;
    for (const segment of segments) {
      const existing = (await this.children(current)).find((child) => sameName(child.name, segment));
      if (existing) {
        current = { kind: "folders", id: existing.id };
        continue;
      }
      if (!options.create) return { folder: null, created };
      current = { kind: "folders", id: await this.create(current, segment, options.defaultSecurity) };
      created = true;
    }
    return { folder: current, created };
  }
}
