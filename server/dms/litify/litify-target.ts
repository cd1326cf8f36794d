import { createHash } from "node:crypto";
import type { DmsIntended, DmsStoreRequest, DmsStoreResult } from "../dms-target";
import { DmsTargetError } from "../dms-target";
import { type VendorContext, type VendorTarget, runConnectionChecks } from "../vendor-target";
import { JSON_LIMIT_BYTES, documentTitle, filingMarker, findByMarker, insertVersion, pathOnClient, propertiesText } from "./litify-documents";
import { LITIFY_KIND, toDmsError } from "./litify-errors";
import { findMatter, sampleMatters } from "./litify-matters";
import { type LitifySettings, LitifySession } from "./litify-session";

// The Litify target: a filing's document becomes a Salesforce File on its Litify matter
// (litify_pm__Matter__c), found by the credential's matter column. See docs/dms/litify.md.

export { LITIFY_KIND } from "./litify-errors";
export type { LitifySettings } from "./litify-session";

/** What the console says beside the connection test: which published sources the calls are checked against. */
export const VERIFIED_AGAINST =
  "Salesforce REST API Developer Guide and OAuth flow documentation (Salesforce Files on the Litify matter); Litify and Docrio publish no API reference";

/** Salesforce's own sign-in; ECFX_SALESFORCE_LOGIN_URL switches it (a sandbox's test.salesforce.com, a local server). */
export const SALESFORCE_LOGIN_URL = "https://login.salesforce.com";

/** Where a person opens the file: its Lightning record page in the firm's org, under their own sign-in. */
export const litifyDocumentLink = (instanceUrl: string, documentId: string) =>
  `${instanceUrl.trim().replace(/\/+$/, "")}/lightning/r/ContentDocument/${documentId}/view`;

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** "<matter Id>/<file name>": the matter's Id holds no "/", the file name may. */
function parseLocation(location: string): { matterId: string } {
  const slash = location.indexOf("/");
  if (slash <= 0) throw new DmsTargetError(LITIFY_KIND, `${location} names no Litify matter`, false);
  return { matterId: location.slice(0, slash) };
}

export interface LitifyOptions {
  /** Documents above this many bytes are sent multipart (tests lower it). */
  jsonLimitBytes?: number;
}

export function createLitifyTarget(settings: LitifySettings, ctx: VendorContext, options: LitifyOptions = {}): VendorTarget {
  const session = new LitifySession(settings, ctx);
  const column = settings.matter_column_name;
  const result = (documentId: string): DmsStoreResult => ({ location: documentId, link: litifyDocumentLink(settings.instance_url, documentId) });

  async function intend(request: DmsStoreRequest, idempotencyKey: string): Promise<DmsIntended> {
    try {
      const matter = await session.run((connection) => findMatter(connection, column, request.subject));
      return { location: `${matter.Id}/${pathOnClient(request.name, request.extension)}`, contentHash: sha256(request.bytes), idempotencyKey };
    } catch (error) {
      throw toDmsError(error, `the lookup of the matter by ${column}`);
    }
  }

  async function findExisting(intended: DmsIntended): Promise<DmsStoreResult | null> {
    try {
      const documentId = await session.run((connection) => findByMarker(connection, filingMarker(intended.idempotencyKey, intended.contentHash)));
      return documentId ? result(documentId) : null;
    } catch (error) {
      throw toDmsError(error, "the search for an earlier attempt's file");
    }
  }

  async function write(request: DmsStoreRequest, intended: DmsIntended): Promise<DmsStoreResult> {
    const { matterId } = parseLocation(intended.location);
    const fileName = pathOnClient(request.name, request.extension);
    const description = propertiesText(request.properties);
    // No folder is made (a record has none), so folder_creation_sync_delay never applies.
    try {
      const documentId = await session.run((connection) =>
        insertVersion(
          connection,
          {
            Title: documentTitle(request.folder, request.name),
            PathOnClient: fileName,
            FirstPublishLocationId: matterId,
            ReasonForChange: filingMarker(intended.idempotencyKey, intended.contentHash),
            ...(description ? { Description: description } : {}),
          },
          request.bytes,
          request.contentType,
          options.jsonLimitBytes ?? JSON_LIMIT_BYTES,
        ),
      );
      return result(documentId);
    } catch (error) {
      throw toDmsError(error, `the upload of ${fileName}`);
    }
  }

  function testConnection() {
    return runConnectionChecks([
      {
        step: "Sign in",
        describe: (error) => toDmsError(error, "the sign-in").message,
        run: async () => {
          const connection = await session.signIn();
          return `Signed in to ${new URL(connection.instanceUrl).host} ${session.describe()}`;
        },
      },
      {
        step: "Find matters",
        describe: (error) => toDmsError(error, `the lookup of matters by ${column}`).message,
        run: async () => {
          const matters = await session.run((connection) => sampleMatters(connection, column));
          if (matters.length === 0) return `Read matters by ${column}: the org has none yet`;
          const example = matters[0]!;
          const value = column.split(".").reduce<unknown>((record, key) => (record as Record<string, unknown> | null)?.[key], example);
          const count = matters.length === 5 ? "matters" : `${matters.length} ${matters.length === 1 ? "matter" : "matters"}`;
          return `Read ${count} by ${column}, e.g. ${String(value ?? "(empty)")} (${String(example.Name)})`;
        },
      },
    ]);
  }

  return { kind: LITIFY_KIND, recognisesCopyBy: "key", intend, findExisting, write, testConnection };
}
