import { z } from "zod";
import { DmsLocationTaken, DmsTargetError } from "../dms-target";
import type { LibraryUrl } from "./library-url";
import type { RestApi } from "./rest-api";
import { restLiteral } from "./rest-api";
import type { LibraryEntry, SharePointLibrary } from "./sharepoint-target-core";

// The credential's library on SharePoint Server, addressed by server-relative URL
// ("/sites/Legal/Shared Documents/ECFX/…"): folders looked up with GetFolderByServerRelativeUrl
// and created with Folders/add, files added with Files/add(overwrite=false), which SharePoint
// writes whole or not at all, then described with ValidateUpdateListItem (column values and the
// check-in comment, where the filing's reference goes).

// SharePoint's answers as the client reads them (nometadata JSON).
const restFileSchema = z.object({ ServerRelativeUrl: z.string(), Name: z.string(), CheckInComment: z.string().nullish() });
export type RestFile = z.infer<typeof restFileSchema>;
const restFolderSchema = z.object({
  ServerRelativeUrl: z.string(),
  Name: z.string(),
  Exists: z.boolean().optional(),
  Files: z.array(restFileSchema).optional(),
  Folders: z.array(z.object({ ServerRelativeUrl: z.string(), Name: z.string() })).optional(),
});
type RestFolder = z.infer<typeof restFolderSchema>;
const fieldResultsSchema = z.object({ value: z.array(z.object({ FieldName: z.string(), HasException: z.boolean(), ErrorMessage: z.string().nullable() })) });
const webSchema = z.object({ Title: z.string() });
const anyAnswer = z.unknown();

/** SharePoint's error code for "a file with that name exists". */
const FILE_EXISTS = "-2130575257";

const folderCall = (url: string) => `web/GetFolderByServerRelativeUrl(${restLiteral(url)})`;
const fileCall = (url: string) => `web/GetFileByServerRelativeUrl(${restLiteral(url)})`;

export class RestLibrary implements SharePointLibrary<RestFile> {
  /** "/sites/Legal/Shared Documents". */
  private readonly libraryPath: string;

  constructor(
    private readonly api: RestApi,
    private readonly url: LibraryUrl,
  ) {
    if (!url.library) throw new DmsTargetError(api.kind, "The SharePoint address names a site but no document library", false);
    this.libraryPath = `${url.sitePath}/${url.library}`;
  }

  private serverRelative(path: string[]): string {
    return [this.libraryPath, ...path].join("/");
  }

  async root(): Promise<{ folders: string[]; pathLength: number }> {
    return { folders: this.url.folders, pathLength: this.serverRelative(this.url.folders).length };
  }

  async find(path: string[]): Promise<LibraryEntry | null> {
    const url = this.serverRelative(path);
    const file = await this.api.find(
      {
        method: "GET",
        path: `${fileCall(url)}?$select=Name,ServerRelativeUrl,CheckInComment`,
        action: `looking up ${url}`,
      },
      restFileSchema,
    );
    if (file) return { isFile: true, link: this.linkOf(file), description: file.CheckInComment };
    const folder = await this.folder(url);
    return folder && { isFile: false, link: this.linkOf(folder) };
  }

  private async folder(url: string): Promise<RestFolder | null> {
    const folder = await this.api.find(
      {
        method: "GET",
        path: `${folderCall(url)}?$select=Name,ServerRelativeUrl,Exists`,
        action: `looking up ${url}`,
      },
      restFolderSchema,
    );
    return folder && folder.Exists !== false ? folder : null;
  }

  async ensureFolder(path: string[]): Promise<{ created: boolean }> {
    let created = false;
    for (let depth = 1; depth <= path.length; depth++) {
      const url = this.serverRelative(path.slice(0, depth));
      if (await this.folder(url)) continue;
      const name = path[depth - 1] ?? "";
      // Folders/add answers with the folder whether it was made now or by a concurrent filing.
      await this.api.json(
        {
          method: "POST",
          path: `${folderCall(this.serverRelative(path.slice(0, depth - 1)))}/Folders/add(${restLiteral(name)})`,
          action: `creating folder ${url}`,
        },
        anyAnswer,
      );
      created = true;
    }
    return { created };
  }

  async upload(path: string[], bytes: Buffer, contentType: string, location: string): Promise<RestFile> {
    const folder = this.serverRelative(path.slice(0, -1));
    const response = await this.api.send({
      method: "POST",
      path: `${folderCall(folder)}/Files/add(url=${restLiteral(path[path.length - 1] ?? "")},overwrite=false)`,
      bytes,
      contentType: contentType || "application/octet-stream",
      action: `the upload of ${location}`,
    });
    if (!response.ok) {
      const { http, ctx } = this.api.wire;
      const body = await http.text(response).catch(() => "");
      if (body.includes(FILE_EXISTS)) throw new DmsLocationTaken(this.api.kind, location);
      throw http.refusalOf(ctx, response, body, `the upload of ${location}`);
    }
    return this.api.read(response, `the upload of ${location}`, restFileSchema);
  }

  async describe(file: RestFile, fields: Record<string, string>, description: string, location: string): Promise<void> {
    const results = await this.api.json(
      {
        method: "POST",
        path: `${fileCall(file.ServerRelativeUrl)}/ListItemAllFields/ValidateUpdateListItem`,
        json: {
          formValues: Object.entries(fields).map(([FieldName, FieldValue]) => ({ FieldName, FieldValue })),
          bNewDocumentUpdate: true,
          checkInComment: description,
        },
        action: `setting the properties of ${location}`,
      },
      fieldResultsSchema,
    );
    const refused = results.value.filter((result) => result.HasException);
    if (refused.length) {
      throw new DmsTargetError(
        this.api.kind,
        `SharePoint refused the properties of ${location}: ${refused.map((result) => `${result.FieldName}: ${result.ErrorMessage ?? "refused"}`).join("; ")}`,
        false,
      );
    }
  }

  async remove(file: RestFile): Promise<void> {
    const response = await this.api.send({
      method: "POST",
      path: fileCall(file.ServerRelativeUrl),
      headers: { "x-http-method": "DELETE", "if-match": "*" },
      action: "removing the unfinished upload",
    });
    await this.api.expectOk(response, "removing the unfinished upload");
  }

  linkOf(item: { ServerRelativeUrl: string }): string {
    return `${this.url.origin}${item.ServerRelativeUrl.split("/").map(encodeURIComponent).join("/")}`;
  }

  connectionSteps() {
    return [
      {
        step: "Open the site",
        run: async () => {
          const web = await this.api.json({ method: "GET", path: "web?$select=Title", action: "opening the site" }, webSchema);
          return `Opened site ${web.Title} at ${this.api.siteUrl}`;
        },
      },
      {
        step: "List the root folder",
        run: async () => {
          const url = this.serverRelative(this.url.folders);
          const folder = await this.api.find({ method: "GET", path: `${folderCall(url)}?$expand=Files,Folders`, action: `listing ${url}` }, restFolderSchema);
          if (!folder || folder.Exists === false) throw new DmsTargetError(this.api.kind, `SharePoint has no folder ${url}`, false);
          return `Listed ${(folder.Files?.length ?? 0) + (folder.Folders?.length ?? 0)} items in ${url}`;
        },
      },
    ];
  }
}
