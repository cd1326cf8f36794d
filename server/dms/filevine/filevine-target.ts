import { createHash } from "node:crypto";
import { DmsTargetError, type DmsIntended, type DmsStoreRequest, type DmsStoreResult } from "../dms-target";
import { type VendorContext, type VendorTarget, runConnectionChecks } from "../vendor-target";
import { fileVineAddress } from "../../../app/common/filevine";
import { type BillingSetting, billingSetting, ensureBillingItem } from "./filevine-billing";
import { type FileVineDocument, folderDocuments, tagDocument, uploadDocument } from "./filevine-documents";
import { resolveFolder } from "./filevine-folders";
import { FILEVINE_KIND } from "./filevine-http";
import { fileVineSafeName, filingHashtag, firstFreeFileName, hashtagsOf } from "./filevine-names";
import { type FileVineProject, findProject, projectById } from "./filevine-projects";
import { projectList } from "./filevine-schemas";
import { FileVineSession, type FileVineSettings } from "./filevine-session";

// The FileVine target: a filing's documents go into the project of the case's matter, into the
// storage policy's folder path below the project's documents folder, with the credential's
// hashtags and the filing's own hashtag (what a retry finds its earlier copy by), and, when the
// credential names a billing item, one billing item per filing. See docs/dms/filevine.md.

export { FILEVINE_DEFAULT_BASE_URL } from "./filevine-hosts";
export { FILEVINE_KIND } from "./filevine-http";
export type { FileVineSettings } from "./filevine-session";

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** "<project id>:/<folder>/…/<name>": the project an attempt chose, the folder path and the file name. */
const locationOf = (projectId: string, folder: string[], name: string) => `${projectId}:/${[...folder, name].join("/")}`;

function parseLocation(location: string): { projectId: string; folder: string[]; name: string } {
  const at = location.indexOf(":/");
  if (at <= 0) throw new DmsTargetError(FILEVINE_KIND, `Not a FileVine location: ${location}`, false);
  const segments = location
    .slice(at + 2)
    .split("/")
    .filter(Boolean);
  return { projectId: location.slice(0, at), folder: segments.slice(0, -1), name: segments.at(-1) ?? "" };
}

/** Where a person opens the document: the project's documents in the firm's FileVine. */
export function fileVineDocumentLink(origin: string, projectId: string, documentId: string): string {
  return `${origin}/#/project/${encodeURIComponent(projectId)}/documents/${encodeURIComponent(documentId)}`;
}

export function createFileVineTarget(settings: FileVineSettings, ctx: VendorContext): VendorTarget {
  const session = new FileVineSession(settings, ctx);
  const tags = hashtagsOf(settings.hashtags ?? "");
  const billing = (): BillingSetting | null => billingSetting(settings.billingItem ?? "");

  const linkOf = (project: FileVineProject, documentId: string): string | undefined => {
    const origin = fileVineAddress(settings.subdomain)?.web ?? (project.url ? new URL(project.url).origin : null);
    return origin ? fileVineDocumentLink(origin, project.id, documentId) : undefined;
  };

  async function intend(request: DmsStoreRequest, idempotencyKey: string): Promise<DmsIntended> {
    // A billing item that cannot be read fails the filing before anything is written.
    billing();
    const project = await findProject(session, request.subject);
    const folder = request.folder.map(fileVineSafeName);
    const found = await resolveFolder(session, project, folder, false);
    const taken = found.id ? (await folderDocuments(session, project.id, found.id)).map((document) => document.name) : [];
    const name = firstFreeFileName(request.name, request.extension, taken);
    return { location: locationOf(project.id, folder, name), contentHash: sha256(request.bytes), idempotencyKey };
  }

  const filingTags = (idempotencyKey: string) => [...tags, filingHashtag(idempotencyKey)];

  /**
   * The filing's copy in the folder: the document with the filing's hashtag; else, when an attempt
   * stopped between adding the document and tagging it, the untagged document of the chosen name
   * the signed-in user uploaded (the name was free when chosen), tagged now.
   */
  async function copyOf(projectId: string, folderId: string, name: string, idempotencyKey: string): Promise<FileVineDocument | null> {
    const mark = filingHashtag(idempotencyKey);
    const documents = await folderDocuments(session, projectId, folderId);
    const tagged = documents.find((document) => document.hashtags.includes(mark));
    if (tagged) return tagged;
    const { userId } = await session.user();
    const untagged = documents.find(
      (document) => document.name === name && document.uploaderId === userId && !document.hashtags.some((tag) => /^ecfx[0-9a-z]+$/.test(tag)),
    );
    if (!untagged) return null;
    await tagDocument(session, untagged.id, filingTags(idempotencyKey));
    return untagged;
  }

  async function findExisting(intended: DmsIntended): Promise<DmsStoreResult | null> {
    const { projectId, folder, name } = parseLocation(intended.location);
    const project = await projectById(session, projectId);
    const found = await resolveFolder(session, project, folder, false);
    if (!found.id) return null;
    const copy = await copyOf(project.id, found.id, name, intended.idempotencyKey);
    if (!copy) return null;
    // The attempt that filed it may have stopped before its billing item.
    const setting = billing();
    if (setting) await ensureBillingItem(session, setting, project.id, undefined, name, intended.idempotencyKey);
    return { location: copy.id, link: linkOf(project, copy.id) };
  }

  async function write(request: DmsStoreRequest, intended: DmsIntended): Promise<DmsStoreResult> {
    const { projectId, folder, name } = parseLocation(intended.location);
    const project = await projectById(session, projectId);
    const target = await resolveFolder(session, project, folder, true);
    // FileVine may serve a new folder to uploads only after a while.
    if (target.created) await ctx.sleep(settings.folder_creation_sync_delay);
    const documentId = await uploadDocument(session, {
      projectId: project.id,
      folderId: target.id!,
      name,
      bytes: request.bytes,
      contentType: request.contentType,
      hashtags: filingTags(intended.idempotencyKey),
    });
    const setting = billing();
    if (setting) await ensureBillingItem(session, setting, project.id, request.subject, name, intended.idempotencyKey);
    return { location: documentId, link: linkOf(project, documentId) };
  }

  function testConnection() {
    return runConnectionChecks([
      {
        step: "Sign in",
        run: async () => {
          const user = await session.user();
          return `Signed in as ${user.name || `user ${user.userId}`} (org ${user.orgId})`;
        },
      },
      {
        step: "List projects",
        run: async () => {
          const count = (await session.call("/Projects", { query: { limit: 10, excludeArchived: true } }, "to list projects", projectList)).Items.length;
          return `Listed ${count} ${count === 1 ? "project" : "projects"}`;
        },
      },
    ]);
  }

  return { kind: FILEVINE_KIND, recognisesCopyBy: "key", intend, findExisting, write, testConnection };
}
