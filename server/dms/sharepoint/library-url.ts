// A SharePoint site or library URL as a firm copies it from the browser
// ("https://contoso.sharepoint.com/sites/Legal/Shared%20Documents/Filings"): the host, the site's
// path ("/sites/Legal", "" for the root site), the library's URL name ("Shared Documents") and
// the folders inside the library the credential's root is.

export interface LibraryUrl {
  host: string;
  origin: string;
  /** "/sites/Legal" or "/teams/Litigation"; "" for the root site. */
  sitePath: string;
  /** The library's URL name as SharePoint shows it in the address ("Shared Documents"); "" when the URL names the site only. */
  library: string;
  /** Folders inside the library below which documents are filed. */
  folders: string[];
}

/** Segments that belong to the page, not to the library ("Forms/AllItems.aspx"). */
const PAGE_TAIL = /^(forms|_layouts)$|\.aspx$/i;

export function parseLibraryUrl(raw: string): LibraryUrl {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RangeError(`"${raw}" is not a SharePoint site or library address`);
  }
  const segments = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const end = segments.findIndex((segment) => PAGE_TAIL.test(segment));
  const path = end === -1 ? segments : segments.slice(0, end);
  const managed = path.length >= 2 && /^(sites|teams|personal)$/i.test(path[0] ?? "");
  const siteSegments = managed ? path.slice(0, 2) : [];
  const rest = path.slice(siteSegments.length);
  return {
    host: url.hostname.toLowerCase(),
    origin: url.origin,
    sitePath: siteSegments.length ? `/${siteSegments.join("/")}` : "",
    library: rest[0] ?? "",
    folders: rest.slice(1),
  };
}

/** Path segments as they go into a URL. */
export const encodePath = (segments: string[]) => segments.map(encodeURIComponent).join("/");
