import { randomBytes } from "node:crypto";
import { dropboxContentHash } from "../../../server/dms/dropbox/content-hash";
import { collisionKey } from "../../../server/dms/dropbox/dropbox-names";

// What the local Dropbox holds: one user's namespace of folders and files (paths compare in lower
// case, as Dropbox's do), property templates, upload sessions and shared links. It answers in
// Dropbox's shapes; the HTTP side (dropbox-server.ts) only routes and checks the contract.

export interface PropertyGroup {
  template_id: string;
  fields: { name: string; value: string }[];
}

interface Entry {
  tag: "file" | "folder";
  id: string;
  pathDisplay: string;
  bytes?: Buffer;
  rev?: string;
  serverModified?: string;
  propertyGroups?: PropertyGroup[];
}

export interface Template {
  name: string;
  description: string;
  fields: { name: string; description: string; type: { ".tag": "string" } }[];
}

/** A Dropbox route error: HTTP 409 with error_summary and the error union. */
export class RouteError extends Error {
  constructor(
    readonly summary: string,
    readonly error: unknown,
  ) {
    super(summary);
  }
}

const lower = collisionKey;
const nameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);
const parentOf = (path: string) => path.slice(0, path.lastIndexOf("/"));
const timestamp = () => new Date().toISOString().replace(/\.\d+Z$/, "Z");
const randomId = (bytes = 8) => randomBytes(bytes).toString("hex");

const notFound = () => new RouteError("path/not_found/..", { ".tag": "path", path: { ".tag": "not_found" } });
const conflict = (what: string) => ({ ".tag": "conflict", conflict: { ".tag": what } });

export class DropboxNamespace {
  readonly entries = new Map<string, Entry>();
  readonly templates = new Map<string, Template>();
  private readonly sessions = new Map<string, Buffer>();
  private readonly links = new Map<string, string>();

  constructor(private readonly origin: string) {}

  private entry(path: string): Entry | undefined {
    return this.entries.get(lower(path));
  }

  /** Creates missing folders down to `path` (inclusive); a file on the way is a conflict. */
  private makeFolders(path: string, conflictOf: (what: string) => RouteError): void {
    const parts = path.split("/").filter(Boolean);
    for (let depth = 1; depth <= parts.length; depth++) {
      const partial = `/${parts.slice(0, depth).join("/")}`;
      const found = this.entry(partial);
      if (found?.tag === "file") throw conflictOf(depth === parts.length ? "file" : "file_ancestor");
      if (!found) this.entries.set(lower(partial), { tag: "folder", id: `id:${randomId()}`, pathDisplay: partial });
    }
  }

  metadata(entry: Entry, templateIds?: string[]): Record<string, unknown> {
    const common = { name: nameOf(entry.pathDisplay), id: entry.id, path_lower: lower(entry.pathDisplay), path_display: entry.pathDisplay };
    if (entry.tag === "folder") return { ".tag": "folder", ...common };
    const groups = (entry.propertyGroups ?? []).filter((group) => templateIds?.includes(group.template_id));
    return {
      ".tag": "file",
      ...common,
      client_modified: entry.serverModified,
      server_modified: entry.serverModified,
      rev: entry.rev,
      size: entry.bytes?.length ?? 0,
      is_downloadable: true,
      content_hash: dropboxContentHash(entry.bytes ?? Buffer.alloc(0)),
      ...(templateIds ? { property_groups: groups } : {}),
    };
  }

  getMetadata(path: string, templateIds?: string[]): Record<string, unknown> {
    const found = this.entry(path);
    if (!found) throw notFound();
    return this.metadata(found, templateIds);
  }

  createFolder(path: string): Record<string, unknown> {
    const found = this.entry(path);
    if (found) throw new RouteError(`path/conflict/${found.tag}/..`, { ".tag": "path", path: conflict(found.tag) });
    this.makeFolders(path, (what) => new RouteError(`path/conflict/${what}/..`, { ".tag": "path", path: conflict(what) }));
    return { metadata: this.getMetadata(path) };
  }

  listFolder(path: string): Record<string, unknown> {
    if (path !== "" && this.entry(path)?.tag !== "folder") throw notFound();
    const prefix = `${lower(path)}/`;
    const entries = [...this.entries.entries()]
      .filter(([key]) => key.startsWith(prefix) && !key.slice(prefix.length).includes("/"))
      .map(([, entry]) => this.metadata(entry));
    return { entries, cursor: randomId(16), has_more: false };
  }

  /** Checks property groups against the templates, as Dropbox does before it commits. */
  private checkGroups(groups: PropertyGroup[] | undefined, errorOf: (summary: string, error: unknown) => RouteError): void {
    for (const group of groups ?? []) {
      const template = this.templates.get(group.template_id);
      if (!template) throw errorOf(`properties_error/template_not_found/`, { ".tag": "template_not_found", template_not_found: group.template_id });
      const known = new Set(template.fields.map((field) => field.name));
      if (group.fields.some((field) => !known.has(field.name) || field.value.length > 1024))
        throw errorOf("properties_error/does_not_fit_template/", { ".tag": "does_not_fit_template" });
    }
  }

  /**
   * Commits a file at `path` (mode add, no autorename): a taken name is a conflict and nothing is
   * written. `pathError` shapes the error as the calling route's union does.
   */
  commit(path: string, bytes: Buffer, groups: PropertyGroup[] | undefined, pathError: (what: string) => RouteError): Record<string, unknown> {
    const properties = (summary: string, error: unknown) => new RouteError(summary, { ".tag": "properties_error", properties_error: error });
    this.checkGroups(groups, properties);
    const found = this.entry(path);
    if (found) throw pathError(found.tag);
    this.makeFolders(parentOf(path), pathError);
    const entry: Entry = {
      tag: "file",
      id: `id:${randomId()}`,
      pathDisplay: `${this.entry(parentOf(path))?.pathDisplay ?? ""}/${nameOf(path)}`,
      bytes,
      rev: randomId(9).slice(0, 15),
      serverModified: timestamp(),
      propertyGroups: groups,
    };
    this.entries.set(lower(path), entry);
    return this.metadata(entry);
  }

  startSession(bytes: Buffer): string {
    const id = `pid_upload_session:${randomId(12)}`;
    this.sessions.set(id, bytes);
    return id;
  }

  /** Adds bytes to a session at `offset`; a wrong offset or an unknown session is Dropbox's lookup error. */
  appendSession(sessionId: string, offset: number, bytes: Buffer, wrap: (summary: string, error: unknown) => RouteError): Buffer {
    const held = this.sessions.get(sessionId);
    if (!held) throw wrap("not_found/", { ".tag": "not_found" });
    if (held.length !== offset) throw wrap("incorrect_offset/", { ".tag": "incorrect_offset", correct_offset: held.length });
    const joined = Buffer.concat([held, bytes]);
    this.sessions.set(sessionId, joined);
    return joined;
  }

  closeSession(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  /** The shared link of a file: made once, then the same one (shared_link_already_exists). */
  linkFor(entry: Entry): string {
    return `${this.origin}/scl/fi/${entry.id.slice(3)}/${encodeURIComponent(nameOf(entry.pathDisplay))}?dl=0`;
  }

  linkMetadata(path: string): Record<string, unknown> {
    const found = this.entry(path);
    if (!found) throw notFound();
    const url = this.linkFor(found);
    return {
      ".tag": found.tag,
      url,
      name: nameOf(found.pathDisplay),
      id: found.id,
      path_lower: lower(found.pathDisplay),
      link_permissions: {
        can_revoke: true,
        resolved_visibility: { ".tag": "public" },
        visibility_policies: [],
        can_set_expiry: false,
        can_remove_expiry: false,
        allow_download: true,
        can_allow_download: true,
        can_disallow_download: false,
        allow_comments: false,
        team_restricts_comments: false,
      },
      ...(found.tag === "file"
        ? { client_modified: found.serverModified, server_modified: found.serverModified, rev: found.rev, size: found.bytes?.length ?? 0 }
        : {}),
    };
  }

  createLink(path: string): Record<string, unknown> {
    const found = this.entry(path);
    if (!found) throw new RouteError("path/not_found/..", { ".tag": "path", path: { ".tag": "not_found" } });
    const metadata = this.linkMetadata(path);
    if (this.links.has(lower(path)))
      throw new RouteError("shared_link_already_exists/metadata/..", {
        ".tag": "shared_link_already_exists",
        shared_link_already_exists: { ".tag": "metadata", metadata },
      });
    this.links.set(lower(path), metadata.url as string);
    return metadata;
  }

  listLinks(path: string | undefined): Record<string, unknown> {
    const paths = path === undefined ? [...this.links.keys()] : this.links.has(lower(path)) ? [lower(path)] : [];
    return { links: paths.map((held) => this.linkMetadata(held)), has_more: false };
  }

  addTemplate(template: Template): string {
    const id = `ptid:${randomId(6)}`;
    this.templates.set(id, template);
    return id;
  }

  getTemplate(id: string): Template {
    const template = this.templates.get(id);
    if (!template) throw new RouteError("template_not_found/", { ".tag": "template_not_found", template_not_found: id });
    return template;
  }
}
