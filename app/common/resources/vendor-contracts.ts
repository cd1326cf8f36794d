import type { DMS_CREDENTIAL_KEYS } from "./credentials";

// What each connector's calls were checked against, shown beside "Test connection" so a firm's IT
// knows how far a passing test goes: the vendor's published sources, as docs/dms/<vendor>.md
// lists them call by call. A type without an entry shows no line.

type CredentialKey = (typeof DMS_CREDENTIAL_KEYS)[number];

export const VERIFIED_AGAINST: Partial<Record<CredentialKey, string>> = {
  "dms-clio": "Clio's API v4 reference (developers.clio.com) as its generated public clients publish it; not a live Clio account",
  "dms-box": "Box's OpenAPI description (github.com/box/box-openapi, commit c9a878a9)",
  "dms-imanage-cloud": "iManage Work API v2 as iManage's public help and partner guides describe it; not a live iManage library",
  "dms-imanage-on-prem": "iManage Work API v2 as iManage's public help and partner guides describe it; not a live iManage server",
  "dms-netdocuments-cloud": "NetDocuments' published REST API v1 reference; not a live repository",
  "dms-netdocuments-client": "NetDocuments' published REST API v1 reference; not a live repository",
  "dms-dropbox": "Dropbox's Stone API specification (github.com/dropbox/dropbox-api-spec)",
  "dms-litify":
    "Salesforce's REST API and OAuth documentation, files filed as Salesforce Files on the matter; not against Litify Docs (Docrio): Litify documents it but publishes no API reference for it, so ECFX files nothing there (docs/dms/litify.md); not a live org",
  "dms-filevine":
    'Filevine\'s published API v2 reference (developer.filevine.io, its Swagger export "Filevine Api Gateway" 2.0.0); the Canadian hosts and the older key API are not confirmed; not a live org',
};

/** The line for a credential type, when its calls were checked against anything. */
export const verifiedAgainst = (key: string): string | undefined => VERIFIED_AGAINST[key as CredentialKey];
