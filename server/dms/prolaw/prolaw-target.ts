import { createHash } from "node:crypto";
import { DmsLocationTaken, DmsTargetError, type DmsIntended, type DmsStoreRequest, type DmsStoreResult } from "../dms-target";
import { type VendorContext, type VendorTarget, runConnectionChecks } from "../vendor-target";
import { PROLAW_KIND, ProLawApi } from "./prolaw-api";
import { findByReference, namesIn, upload } from "./prolaw-documents";
import { resolveFolder } from "./prolaw-folders";
import { findMatter } from "./prolaw-matters";
import { MAX_FOLDER_NAME, firstFreeName, proLawSafeName } from "./prolaw-names";
import { documentProfile, externalReference } from "./prolaw-profile";
import { type Items, type ProLawDocument, type ProLawMatter, itemsOf, proLawMatterSchema } from "./prolaw-types";

// ProLaw (Thomson Reuters' practice-management system, usually on the firm's own network): each
// document is filed on the filing's matter, in the matter's document folders the storage policy
// names, with a profile (type, class, author, description, date, custom fields) and linked by
// the web address ProLaw answers. The firm's server is reached at the credential's base_url with
// its API key. See docs/dms/prolaw.md.

export { PROLAW_KIND } from "./prolaw-api";
/** ProLaw has no vendor-wide address: every credential names its own server. */
export const PROLAW_DEFAULT_BASE_URL = "";

/** What the console says beside the connection test: ProLaw publishes nothing to check against. */
export const VERIFIED_AGAINST =
  "ECFX's own ProLaw contract (docs/dms/prolaw.md); Thomson Reuters publishes no ProLaw API, so the firm's endpoint must implement it";

/** Why a ProLaw credential names an endpoint at all, said whenever that endpoint does not answer as one. */
export const NO_PUBLIC_API =
  "ProLaw has no public API: ECFX files through an endpoint the firm provides that implements ECFX's ProLaw contract (docs/dms/prolaw.md).";

export interface ProLawSettings {
  /** The firm's ProLaw REST API, e.g. https://prolaw.firm.local/ProLaw/api. */
  base_url: string;
  api_key: string;
  /** Whether the firm reaches ProLaw through its ECFX agent; reported by the connection test. */
  use_agent: boolean;
  /** File a sub-matter's documents with its master matter's key as well. */
  add_parent_id: boolean;
  folder_creation_sync_delay: number;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const folderPath = (folder: string[]) => folder.map((segment) => proLawSafeName(segment, MAX_FOLDER_NAME));
/** "M-501/2_24-cv-00501/Notice.pdf": the matter number, its folders and the file name. */
const locationOf = (matter: ProLawMatter, folder: string[], name: string) => [matter.MatterId, ...folder, name].join("/");
const nameOf = (location: string) => location.slice(location.lastIndexOf("/") + 1);
const result = (document: ProLawDocument, location: string): DmsStoreResult => ({ location, link: document.WebUrl });

export function createProLawTarget(settings: ProLawSettings, ctx: VendorContext): VendorTarget {
  if (!settings.api_key) throw new DmsTargetError(PROLAW_KIND, "The ProLaw credential has no API key", false);
  const api = new ProLawApi(settings.base_url, settings.api_key, ctx);

  async function intend(request: DmsStoreRequest, idempotencyKey: string): Promise<DmsIntended> {
    const matter = await findMatter(api, request.subject);
    const folder = folderPath(request.folder);
    const found = await resolveFolder(api, matter.MattersId, folder, false);
    const taken = found ? await namesIn(api, matter.MattersId, found.id) : [];
    const name = firstFreeName(request.name, request.extension, taken);
    return { location: locationOf(matter, folder, name), contentHash: sha256(request.bytes), idempotencyKey };
  }

  async function findExisting(intended: DmsIntended): Promise<DmsStoreResult | null> {
    const copy = await findByReference(api, externalReference(intended.idempotencyKey, intended.contentHash));
    if (!copy) return null;
    // The copy keeps the name it was given, which may differ from the intended one after a race.
    return result(copy, `${intended.location.slice(0, intended.location.lastIndexOf("/") + 1)}${copy.FileName}`);
  }

  async function write(request: DmsStoreRequest, intended: DmsIntended): Promise<DmsStoreResult> {
    const matter = await findMatter(api, request.subject);
    const target = (await resolveFolder(api, matter.MattersId, folderPath(request.folder), true))!;
    // ProLaw's file share may serve a new folder to uploads only after a while.
    if (target.created && settings.folder_creation_sync_delay > 0) await ctx.sleep(settings.folder_creation_sync_delay);
    const reference = externalReference(intended.idempotencyKey, intended.contentHash);
    const profile = documentProfile(request, nameOf(intended.location), target.id, reference, matter, settings.add_parent_id);
    const created = await upload(api, matter.MattersId, profile, request.bytes, request.contentType);
    if (created === "taken") throw new DmsLocationTaken(PROLAW_KIND, intended.location);
    return result(created, intended.location);
  }

  function testConnection() {
    let page: Items<ProLawMatter> | undefined;
    return runConnectionChecks([
      {
        step: "Reach ProLaw with the API key",
        // A refused key means the endpoint is there; anything else means it is not (yet) one.
        describe: (error) => {
          const text = error instanceof Error ? error.message : String(error);
          if (/refused the API key/.test(text)) return text;
          const reason = /could not be reached at /.test(text) ? `nothing answered at ${api.host}` : text;
          return `${NO_PUBLIC_API} ${api.host} did not answer as that endpoint: ${reason}`;
        },
        run: async () => {
          page = await api.get("matters", "to list matters", itemsOf(proLawMatterSchema), { pageSize: 5 });
          const route = settings.use_agent ? "use_agent is on: calls go from ECFX to the addresses ECFX_OUTBOUND_ALLOW opens" : "direct connection";
          return `ProLaw at ${api.host} accepted the API key (${route})`;
        },
      },
      {
        step: "List matters",
        run: async () => {
          const matters = page?.Items ?? [];
          const total = page?.TotalCount ?? matters.length;
          const sample = matters.map((matter) => matter.MatterId).join(", ");
          return `${total} ${total === 1 ? "matter" : "matters"}${sample ? `, e.g. ${sample}` : ""}`;
        },
      },
    ]);
  }

  return { kind: PROLAW_KIND, recognisesCopyBy: "key", intend, findExisting, write, testConnection };
}
