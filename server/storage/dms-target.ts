/**
 * What every document-management target (file system, iManage, NetDocuments, …) offers the
 * storage step: put one file into a folder and say where it went.
 */

export interface DmsStoreRequest {
  /** Folder segments below the target's root or workspace, already sanitised (see path-template). */
  folder: string[];
  /** File name without extension. */
  name: string;
  /** Without the dot: "pdf", "eml". Empty for none. */
  extension: string;
  bytes: Buffer;
  contentType: string;
  /** The storage policy's document_properties, rendered; targets map them to their own metadata. */
  properties: Record<string, string>;
}

export interface DmsStoreResult {
  /** Where the file went, in the target's own terms (a relative path, a document id, …). */
  location: string;
  /** For targets with folders: the folder `location` is relative to, relative to the firm's own root. */
  root?: string;
}

export interface DmsTarget {
  /** The credential type this target serves, e.g. "file-system". */
  kind: string;
  store(request: DmsStoreRequest): Promise<DmsStoreResult>;
}

/**
 * A failure to store. `retryable` tells the pipeline whether another attempt may succeed
 * (a full disk, a timeout) or needs someone to change the configuration first.
 */
export class DmsTargetError extends Error {
  constructor(
    readonly kind: string,
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "DmsTargetError";
  }
}
