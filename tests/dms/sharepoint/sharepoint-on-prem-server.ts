import { randomBytes, randomUUID } from "node:crypto";
import { startNtlmFront } from "./ntlm-front";
import type { HeldDocument, VendorTestServer } from "../vendor-test-server";
import { type Answer, type Exchange, StandIn } from "./stand-in";

// A local SharePoint Server as the client sees it: Windows sign-in (NTLM) by Apache httpd with
// mod_auth_gssapi and gss-ntlmssp in front (ntlm-front.ts), and behind it the site's REST API (/sites/Legal/_api: contextinfo, web, folders and files by
// server-relative URL, Folders/add, Files/add, ValidateUpdateListItem, delete), with SharePoint's
// nometadata JSON, its error bodies ({"odata.error": …}) and its form digest checks. Requests the
// client should never send (no digest on a write, unknown endpoints, wrong grant) are recorded.

export const ON_PREM_DOMAIN = "CONTOSO";
export const ON_PREM_ACCOUNT = "svc-ecfx";
export const ON_PREM_PASSWORD = "Filing-Passw0rd!";
/** How the front names the signed-in account to the site. */
export const ON_PREM_SIGNED_IN_AS = `${ON_PREM_DOMAIN}\\${ON_PREM_ACCOUNT}`;
const SITE = "/sites/Legal";
const LIBRARY = `${SITE}/Shared Documents`;
export const ON_PREM_COLUMNS = ["Title", "CaseNumber", "Court", "FiledBy"];

interface Entry {
  url: string;
  folder: boolean;
  bytes: Buffer;
  comment: string;
  fields: Record<string, string>;
}

export interface SharePointOnPremServer extends VendorTestServer {
  /** The site behind the front, reached without signing in: what a client must never call. */
  backendOrigin: string;
  /** Apache's error log. */
  frontLog(): Promise<string>;
}

const odataError = (status: number, code: string, value: string): Answer => ({ status, json: { "odata.error": { code, message: { lang: "en-US", value } } } });
const notFound = () => odataError(404, "-2147024894, System.IO.FileNotFoundException", "File Not Found.");
/** A REST string literal from the URL: percent-decoded, doubled quotes undone. */
const literal = (raw: string) => decodeURIComponent(raw).replace(/''/g, "'");
const QUOTED = "'((?:[^']|'')*)'";

export async function startSharePointOnPremServer(): Promise<SharePointOnPremServer> {
  const digests = new Set<string>();
  const entries = new Map<string, Entry>();
  const key = (url: string) => url.toLowerCase();
  const put = (entry: Entry) => entries.set(key(entry.url), entry);
  const get = (url: string) => entries.get(key(url));
  put({ url: LIBRARY, folder: true, bytes: Buffer.alloc(0), comment: "", fields: {} });
  put({ url: `${LIBRARY}/ECFX`, folder: true, bytes: Buffer.alloc(0), comment: "", fields: {} });

  const parentOf = (url: string) => url.slice(0, url.lastIndexOf("/"));
  const nameOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);
  const children = (url: string) => [...entries.values()].filter((entry) => key(parentOf(entry.url)) === key(url));
  const folderJson = (entry: Entry, expand: boolean): Record<string, unknown> => ({
    Exists: true,
    Name: nameOf(entry.url),
    ServerRelativeUrl: entry.url,
    ItemCount: children(entry.url).length,
    UniqueId: randomUUID(),
    ...(expand
      ? {
          Files: children(entry.url)
            .filter((c) => !c.folder)
            .map(fileJson),
          Folders: children(entry.url)
            .filter((c) => c.folder)
            .map((c) => folderJson(c, false)),
        }
      : {}),
  });
  const fileJson = (entry: Entry) => ({
    Name: nameOf(entry.url),
    ServerRelativeUrl: entry.url,
    Length: String(entry.bytes.length),
    CheckInComment: entry.comment,
    UniqueId: randomUUID(),
  });
  const link = (url: string) => `${server.origin}${url.split("/").map(encodeURIComponent).join("/")}`;

  function rest(exchange: Exchange, call: string): Answer {
    // Apache signed the connection in (ntlm-front.ts); the stand-in sees whom it let through.
    const account = String(exchange.headers["x-remote-user"] ?? "");
    if (account !== ON_PREM_SIGNED_IN_AS) return standIn.violation(exchange, `reached without Windows sign-in (as "${account}")`);
    if (!String(exchange.headers.accept ?? "").includes("application/json")) return standIn.violation(exchange, "REST calls ask for JSON");
    if (call === "contextinfo" && exchange.method === "POST") {
      const digest = `0x${randomBytes(32).toString("hex").toUpperCase()},${new Date().toUTCString()}`;
      digests.add(digest);
      return {
        status: 200,
        json: {
          FormDigestTimeoutSeconds: 1800,
          FormDigestValue: digest,
          LibraryVersion: "16.0.10337.12109",
          SiteFullUrl: `${server.origin}${SITE}`,
          WebFullUrl: `${server.origin}${SITE}`,
        },
      };
    }
    const write = exchange.method === "POST";
    if (write && !digests.has(String(exchange.headers["x-requestdigest"] ?? ""))) {
      standIn.violation(exchange, "write without a valid form digest");
      return odataError(
        403,
        "-2130575252, Microsoft.SharePoint.SPException",
        "The security validation for this page is invalid and might be corrupted. Please use your web browser's Back button to try your operation again.",
      );
    }
    if (call === "web" || call.startsWith("web?")) return { status: 200, json: { Title: "Legal", Url: `${server.origin}${SITE}` } };
    const json = () => JSON.parse(exchange.body.toString("utf8") || "{}") as Record<string, unknown>;

    const folderCall = new RegExp(`^web/GetFolderByServerRelativeUrl\\(${QUOTED}\\)(.*)$`).exec(call);
    if (folderCall) {
      const url = literal(folderCall[1] ?? "");
      const rest = folderCall[2] ?? "";
      const folder = get(url);
      if (!folder?.folder) return notFound();
      if (!write) return { status: 200, json: folderJson(folder, exchange.query.get("$expand") === "Files,Folders") };
      const addFolder = new RegExp(`^/Folders/add\\(${QUOTED}\\)$`).exec(rest);
      if (addFolder) {
        const child = `${folder.url}/${literal(addFolder[1] ?? "")}`;
        if (!get(child)) put({ url: child, folder: true, bytes: Buffer.alloc(0), comment: "", fields: {} });
        return { status: 200, json: folderJson(get(child) as Entry, false) };
      }
      const addFile = new RegExp(`^/Files/add\\(url=${QUOTED},overwrite=(true|false)\\)$`).exec(rest);
      if (addFile) {
        const url = `${folder.url}/${literal(addFile[1] ?? "")}`;
        if (get(url) && addFile[2] === "false") return odataError(400, "-2130575257, Microsoft.SharePoint.SPException", `The file ${url} already exists.`);
        const entry = { url, folder: false, bytes: exchange.body, comment: "", fields: {} };
        put(entry);
        return { status: 200, json: fileJson(entry) };
      }
      return standIn.violation(exchange, `unknown folder call ${rest}`);
    }
    const fileCall = new RegExp(`^web/GetFileByServerRelativeUrl\\(${QUOTED}\\)(.*)$`).exec(call);
    if (fileCall) {
      const file = get(literal(fileCall[1] ?? ""));
      const rest = fileCall[2] ?? "";
      if (!file || file.folder) return notFound();
      if (!write && rest === "") return { status: 200, json: fileJson(file) };
      if (write && rest === "" && String(exchange.headers["x-http-method"]).toUpperCase() === "DELETE") {
        entries.delete(key(file.url));
        return { status: 200, text: "" };
      }
      if (write && rest === "/ListItemAllFields/ValidateUpdateListItem") {
        const body = json() as { formValues?: { FieldName: string; FieldValue: string }[]; bNewDocumentUpdate?: boolean; checkInComment?: string };
        if (!Array.isArray(body.formValues))
          return odataError(
            400,
            "-1, Microsoft.SharePoint.Client.InvalidClientQueryException",
            "The parameter formValues does not exist in method ValidateUpdateListItem.",
          );
        const value = body.formValues.map(({ FieldName, FieldValue }) => {
          const known = ON_PREM_COLUMNS.includes(FieldName);
          if (known) file.fields[FieldName] = FieldValue;
          return {
            ErrorCode: known ? 0 : -2147024809,
            ErrorMessage: known ? null : `Column '${FieldName}' does not exist. It may have been deleted by another user.`,
            FieldName,
            FieldValue,
            HasException: !known,
            ItemId: 1,
          };
        });
        if (typeof body.checkInComment === "string") file.comment = body.checkInComment;
        return { status: 200, json: { value } };
      }
      return standIn.violation(exchange, `unknown file call ${rest}`);
    }
    return standIn.violation(exchange, `unknown REST call ${call}`);
  }

  const standIn: StandIn = new StandIn((exchange): Answer => {
    const api = new RegExp(`^${SITE}/_api/(.*)$`).exec(exchange.path);
    if (api) return rest(exchange, api[1] ?? "");
    return standIn.violation(exchange, "not a SharePoint REST address");
  });
  await standIn.start();
  const front = await startNtlmFront(standIn.origin, [{ domain: ON_PREM_DOMAIN, user: ON_PREM_ACCOUNT, password: ON_PREM_PASSWORD }]);

  const documentsIn = (entry: Entry) => entry.url.slice(LIBRARY.length + 1).split("/");
  const server: SharePointOnPremServer = {
    origin: front.origin,
    backendOrigin: standIn.origin,
    frontLog: () => front.log(),
    credentialSettings: () => ({
      client_id: `${ON_PREM_DOMAIN}\\${ON_PREM_ACCOUNT}`,
      client_secret: ON_PREM_PASSWORD,
      tenant_id: ON_PREM_DOMAIN,
      base_url: `${front.origin}${SITE}/Shared%20Documents/ECFX`,
      fed_auth_endpoint: "",
      use_agent: false,
      author_field: "FiledBy",
      signature: "Filed by ECFX for Smith & Jones LLP",
      folder_creation_sync_delay: 0,
    }),
    documents: (): HeldDocument[] =>
      [...entries.values()]
        .filter((entry) => !entry.folder)
        .map((entry) => ({
          folder: documentsIn(entry).slice(0, -1),
          name: nameOf(entry.url),
          bytes: entry.bytes,
          properties: { ...entry.fields },
          link: link(entry.url),
        })),
    folders: () => [...entries.values()].filter((entry) => entry.folder && entry.url !== LIBRARY).map(documentsIn),
    failNext: (status, options) => standIn.failNext(status, options),
    contractViolations: () => [...standIn.violations],
    close: async () => {
      await front.close();
      await standIn.close();
    },
  };
  return server;
}
