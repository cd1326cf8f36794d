import { createHash } from "node:crypto";
import type { AuthorizingTarget } from "../authorization-code";
import { DmsLocationTaken, DmsTargetError, type DmsIntended, type DmsStoreRequest, type DmsStoreResult } from "../dms-target";
import { boxSafeName, firstFreeName } from "../box/box-names";
import { type VendorContext, runConnectionChecks } from "../vendor-target";
import { ensureHearingEntry } from "./clio-calendar";
import { deleteDocument, documentsOfFiling, namesIn, uploadDocument } from "./clio-documents";
import { resolveFolders } from "./clio-folders";
import { CLIO_KIND, clioBase, clioDocumentLink, clioPurpose } from "./clio-hosts";
import type { ClioConnection } from "./clio-http";
import { byId, findMatter } from "./clio-matters";
import { ClioSession, clioAuthorizeUrl } from "./clio-session";

// The Clio Manage target: a filing goes into its matter (found by the firm's matter number),
// below the policy's folders, named by the first free name, tagged with the filing's key, and
// linked by its Clio Manage address. A hearing the docket text sets becomes a calendar entry
// when the credential asks for it. See docs/dms/clio.md and decision 057.

export { CLIO_DEFAULT_BASE_URL, CLIO_KIND } from "./clio-hosts";

export interface ClioSettings {
  region: string;
  client_id: string;
  client_secret: string;
  create_calendar_entries: boolean;
  calendar_id: number | null;
  folder_creation_sync_delay: number;
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** "<matter id>/<folder>/…/<name>": where a document is meant to go (names never hold "/"). */
const locationOf = (matterId: number, folder: string[], name: string) => [String(matterId), ...folder, name].join("/");

function parseLocation(location: string): { matterId: number; folder: string[]; name: string } {
  const [matter, ...rest] = location.split("/");
  return { matterId: Number(matter), folder: rest.slice(0, -1), name: rest.at(-1) ?? "" };
}

export function createClioTarget(settings: ClioSettings, ctx: VendorContext): AuthorizingTarget {
  const base = clioBase(settings.region ?? "us", ctx.baseUrl);
  const connection: ClioConnection = { base, purpose: clioPurpose(base), ctx };
  const session = new ClioSession(connection, settings);
  const result = (id: number): DmsStoreResult => ({ location: String(id), link: clioDocumentLink(base, id) });

  async function intend(request: DmsStoreRequest, idempotencyKey: string): Promise<DmsIntended> {
    const matter = await findMatter(session, request.subject);
    const folder = request.folder.map((segment) => boxSafeName(segment));
    const found = await resolveFolders(session, { id: matter.id, folderId: matter.folder.id }, folder, false);
    const stem = boxSafeName(request.name);
    const taken = found ? await namesIn(session, matter.id, found.container, stem, idempotencyKey) : [];
    let name: string;
    try {
      name = firstFreeName(stem, request.extension, taken);
    } catch (error) {
      throw new DmsTargetError(CLIO_KIND, `No free name in matter ${matter.display_number}: ${(error as Error).message}`, false, { cause: error });
    }
    return { location: locationOf(matter.id, folder, name), contentHash: sha256(request.bytes), idempotencyKey };
  }

  async function findExisting(intended: DmsIntended): Promise<DmsStoreResult | null> {
    const copies = await documentsOfFiling(session, intended.idempotencyKey);
    const done = copies.find((document) => document.latest_document_version?.fully_uploaded);
    return done ? result(done.id) : null;
  }

  async function write(request: DmsStoreRequest, intended: DmsIntended): Promise<DmsStoreResult> {
    const { matterId, folder, name } = parseLocation(intended.location);
    // The hearing first: a document in Clio means its filing's entry is there too.
    await ensureHearingEntry(session, settings, matterId, request.subject);
    const matter = await byId(session, String(matterId));
    if (!matter) throw new DmsTargetError(CLIO_KIND, `Clio has no matter ${matterId} any more`, false);
    const resolved = await resolveFolders(session, { id: matter.id, folderId: matter.folder.id }, folder, true);
    if (!resolved) throw new DmsTargetError(CLIO_KIND, "Clio did not create the filing's folders", true);
    // Clio serves a new folder to uploads only after a while on some accounts.
    if (resolved.created) await ctx.sleep(settings.folder_creation_sync_delay);
    // An interrupted attempt's half-uploaded copy is replaced, never left beside the new one.
    for (const leftover of await documentsOfFiling(session, intended.idempotencyKey)) {
      if (leftover.latest_document_version?.fully_uploaded) return result(leftover.id);
      await deleteDocument(session, leftover.id);
    }
    const stem = name.replace(/\.[^.]*$/, "");
    const taken = await namesIn(session, matterId, resolved.container, stem, intended.idempotencyKey);
    if (taken.some((other) => other.toLowerCase() === name.toLowerCase())) throw new DmsLocationTaken(CLIO_KIND, intended.location);
    const id = await uploadDocument(session, connection, {
      container: resolved.container,
      name,
      contentType: request.contentType,
      bytes: request.bytes,
      key: intended.idempotencyKey,
    });
    return result(id);
  }

  function testConnection() {
    return runConnectionChecks([
      {
        step: "Sign in",
        run: async () => {
          const answer = (await session.call("/api/v4/users/who_am_i.json", { query: { fields: "id,name,email" } }, "the sign-in")) as {
            data?: { name?: string; email?: string; id?: number };
          } | null;
          const user = answer?.data;
          return `Signed in as ${user?.name ?? user?.id ?? "an unnamed user"}${user?.email ? ` (${user.email})` : ""}`;
        },
      },
      {
        step: "List matters",
        run: async () => {
          const answer = (await session.call("/api/v4/matters.json", { query: { fields: "id", limit: 1 } }, "the list of matters")) as {
            data?: unknown[];
            meta?: { records?: number };
          } | null;
          const count = answer?.meta?.records ?? answer?.data?.length ?? 0;
          return `Clio lists ${count} ${count === 1 ? "matter" : "matters"}`;
        },
      },
    ]);
  }

  return {
    kind: CLIO_KIND,
    recognisesCopyBy: "key",
    intend,
    findExisting,
    write,
    testConnection,
    authorization: {
      status: () => session.status(),
      authorizeUrl: (state, redirectUri) => clioAuthorizeUrl(connection, settings, state, redirectUri),
      complete: (code, redirectUri) => session.exchange(code, redirectUri),
    },
  };
}
