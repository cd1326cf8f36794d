import { Blob } from "node:buffer";
import { FormData } from "undici";
import type { z } from "zod";
import { created as createdAnswer, documents } from "./imanage-answers";
import { displayName } from "./imanage-names";
import type { IManageSession } from "./imanage-session";

// Documents in an iManage library: those of one folder, a search by the comment profile field
// (where ECFX keeps a filing's idempotency key), and the upload. An upload is one multipart
// POST (a "profile" JSON part and a "file" part): iManage files the document when the whole
// request has arrived and not before, so a cut upload leaves no document behind.

/** A document as ECFX needs it from a listing or a search. */
export interface DocumentEntry {
  id: string;
  /** Name with extension, as it reads in a folder. */
  fileName: string;
  comment: string;
}

/** Documents read per page of a folder listing; a folder with more than PAGE × MAX_PAGES is read no further. */
const PAGE = 500;
const MAX_PAGES = 20;

const asString = (value: string | number | null | undefined) => (value === undefined || value === null ? "" : String(value));

const documentsOf = (answer: z.infer<typeof documents>): DocumentEntry[] =>
  answer.data.map((entry) => ({
    id: entry.id,
    fileName: displayName(asString(entry.name), asString(entry.extension).toLowerCase()),
    comment: asString(entry.comment),
  }));

export class IManageDocuments {
  constructor(
    private readonly session: IManageSession,
    private readonly kind: string,
    private readonly library: string,
  ) {}

  /** Every document in a folder (up to PAGE × MAX_PAGES). */
  async inFolder(folderId: string): Promise<DocumentEntry[]> {
    const path = await this.session.libraryPath(this.library, `/folders/${encodeURIComponent(folderId)}/documents`);
    const found: DocumentEntry[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.session.call(path, { query: { limit: PAGE, offset: page * PAGE } }, "the folder listing", documents);
      const batch = answer.data.length;
      found.push(...documentsOf(answer));
      if (batch < PAGE) break;
    }
    return found;
  }

  /** Documents whose comment is exactly `comment` (iManage's search matches words; the exact value is checked here). */
  async withComment(comment: string): Promise<DocumentEntry[]> {
    const path = await this.session.libraryPath(this.library, "/documents");
    const answer = await this.session.call(path, { query: { comments: comment, limit: 25 } }, "the document search", documents);
    return documentsOf(answer).filter((entry) => entry.comment === comment);
  }

  /** Files a new document in a folder; answers its id ("ACTIVE!123.1"). */
  async upload(folderId: string, profile: Record<string, string>, file: { bytes: Buffer; contentType: string; fileName: string }): Promise<string> {
    const path = await this.session.libraryPath(this.library, `/folders/${encodeURIComponent(folderId)}/documents`);
    const form = new FormData();
    const profilePart = JSON.stringify({ doc_profile: profile, warnings_for_required_and_disabled_fields: true });
    form.append("profile", new Blob([profilePart], { type: "application/json" }));
    form.append("file", new Blob([file.bytes], { type: file.contentType || "application/octet-stream" }), file.fileName);
    return (await this.session.call(path, { method: "POST", body: form }, "the upload", createdAnswer)).data.id;
  }
}
