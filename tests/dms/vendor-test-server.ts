// What every local stand-in for a vendor DMS offers the tests: it speaks the vendor's contract on
// a loopback port (OAuth, folder lookup and create, upload, errors, throttling), keeps what was
// filed in memory, and can be told to fail. The end-to-end API test drives every vendor through
// this one shape.

/** A document the stand-in holds, in vendor-neutral terms. */
export interface HeldDocument {
  /** Folder names from the root (or workspace, cabinet, drive) down to the document's folder. */
  folder: string[];
  /** The name the document was stored under, extension included. */
  name: string;
  bytes: Buffer;
  /** Profile or metadata fields the client set (iManage profile, NetDocuments attributes, Box metadata, …). */
  properties: Record<string, string>;
  /** The link the vendor would hand back for it. */
  link: string;
}

export interface VendorTestServer {
  /** http://127.0.0.1:<port>: what ECFX_<TARGET>_BASE_URL is set to. */
  origin: string;
  /** Settings of a credential that signs in here (the credential's §3 fields, secrets in plain text). */
  credentialSettings(): Record<string, unknown>;
  documents(): HeldDocument[];
  /** Folders that exist, as name paths from the root. */
  folders(): string[][];
  /** The next `count` calls to paths matching `path` (default: every path) answer `status`, with Retry-After seconds if given. */
  failNext(status: number, options?: { count?: number; retryAfterSeconds?: number; path?: RegExp }): void;
  /** Requests the stand-in refused as not matching the vendor's contract (its OpenAPI description where there is one). */
  contractViolations(): string[];
  close(): Promise<void>;
}
