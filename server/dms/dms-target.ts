/**
 * What every document-management target (file system, iManage, NetDocuments, …) offers the
 * storage step: put one file into a folder and say where it went, in a way a retry after a crash
 * can recognise. The storage step records where a file is meant to go (`intend`) before it
 * writes; a retry first asks `findExisting` whether its earlier attempt got there, and adopts
 * that copy instead of filing a second one. A vendor DMS does the same with its own terms: the
 * intended location names the workspace folder and file name, the idempotency key goes into the
 * document's metadata, and `findExisting` searches by it and returns the external document id.
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
  /** What the filing is about: practice-management systems file by matter and read dates from the docket text. */
  subject?: FilingSubject;
}

export interface FilingSubject {
  /** The firm's matter the case belongs to: its number (display number), name and the firm's reference. */
  matter: { number: string; name: string; reference: string | null } | null;
  case: { number: string; name: string };
  /** The docket entry as the court wrote it; empty when the notice has none. */
  docketText: string;
  /** The filing's date as the notice gives it (ISO or US), or null. */
  filedOn: string | null;
  /** The firm's time zone (IANA), for times read from the docket text. */
  timeZone: string;
}

export interface DmsStoreResult {
  /** Where the file went, in the target's own terms (a relative path, a document id, …). */
  location: string;
  /** For targets with folders: the folder `location` is relative to, relative to the firm's own root. */
  root?: string;
  /** Where a person opens the stored document in the DMS (document link, web URL, shared link), when it has one. */
  link?: string;
}

/** Where a write is meant to go, recorded before it. */
export interface DmsIntended {
  /** In the target's own terms: for the file system the exact relative path the file will have. */
  location: string;
  /** SHA-256 (hex) of the bytes: what tells this filing's copy from another document there. */
  contentHash: string;
  /** Stable across attempts of one filing (its DMS record id), for targets that can tag documents. */
  idempotencyKey: string;
  /**
   * For a target filing into the firm's own folders: the file as a path below the firm's storage
   * root. One filing at most holds a path, written or not, so a copy found there with this
   * filing's bytes is its own.
   */
  path?: string;
}

/**
 * Which of these paths (below the firm's storage root) other filings hold: recorded as where
 * their file goes, whether written yet or not. A target choosing a free name skips them.
 */
export type HeldPaths = (paths: string[]) => Promise<ReadonlySet<string>>;

/** Where the storage step keeps its filings' intents. */
export interface IntentRecords {
  held: HeldPaths;
  /** Records the intent before anything is written; DmsLocationTaken when another filing holds its path. */
  record(intended: DmsIntended): Promise<void>;
}

/** For a filing that keeps no records: no other filing holds anything. */
export const NOTHING_HELD: HeldPaths = async () => new Set();

const NO_RECORDS: IntentRecords = { held: NOTHING_HELD, record: async () => undefined };

export interface DmsTarget {
  /** The credential type this target serves, e.g. "file-system". */
  kind: string;
  /**
   * How `findExisting` knows the filing's own copy: by the idempotency key the DMS keeps with the
   * document, or by the content alone (same bytes at the intended location). A copy known by its
   * content may be another filing's of the same bytes, so the storage step adopts it only when no
   * other record holds that location.
   */
  recognisesCopyBy: "key" | "content";
  /** Where `request` would go now (the file system: the first name free on disk and not `held`). Writes nothing. */
  intend(request: DmsStoreRequest, idempotencyKey: string, held?: HeldPaths): Promise<DmsIntended>;
  /** The copy an earlier attempt stored for `intended` (same content), or null when there is none. */
  findExisting(intended: DmsIntended): Promise<DmsStoreResult | null>;
  /** Writes to `intended` and nowhere else, never over another document: DmsLocationTaken when it is taken. */
  write(request: DmsStoreRequest, intended: DmsIntended): Promise<DmsStoreResult>;
}

/**
 * A failure to store. `retryable` tells the pipeline whether another attempt may succeed
 * (a full disk, a timeout) or needs someone to change the configuration first.
 */
export class DmsTargetError extends Error {
  /** How long the DMS asked to be left alone (a 429's Retry-After), in milliseconds. */
  readonly retryAfterMs?: number;
  constructor(
    readonly kind: string,
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown; retryAfterMs?: number },
  ) {
    super(message, options);
    this.name = "DmsTargetError";
    if (options?.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

/** The intended location was taken by another document between `intend` and `write`: intend again. */
export class DmsLocationTaken extends DmsTargetError {
  constructor(kind: string, location: string) {
    super(kind, `${location} was taken by another document`, true);
    this.name = "DmsLocationTaken";
  }
}

/** How many times a filing picks a new location because another document or filing took the one it chose. */
const MAX_LOCATION_RACES = 20;

/**
 * Intends, records the intended location (before anything is written), then writes; chooses
 * again when a concurrent filing records the path first or a concurrent write takes the location.
 * The first choice asks the records nothing: recording it refuses a path another filing holds
 * (DmsLocationTaken), and only then are the held paths read, for every choice after it. A path is
 * rarely held by a filing that has not written it yet, so most filings never ask.
 */
export async function intendAndWrite(
  target: DmsTarget,
  request: DmsStoreRequest,
  idempotencyKey: string,
  records: IntentRecords = NO_RECORDS,
): Promise<DmsStoreResult> {
  for (let race = 1; ; race++) {
    const intended = await target.intend(request, idempotencyKey, race === 1 ? NOTHING_HELD : records.held);
    try {
      await records.record(intended);
      return await target.write(request, intended);
    } catch (error) {
      if (!(error instanceof DmsLocationTaken) || race >= MAX_LOCATION_RACES) throw error;
    }
  }
}
