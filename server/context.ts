import type { DemoResetResult } from "../app/common/demo-reset";
import type { Caller } from "./auth/caller";
import type { Config } from "./config";
import type { Database } from "./db/database";
import type { Secrets } from "./auth/secrets";
import type { Clock } from "./lib/clock";
import type { CourtConnector } from "./courts/connector";
import type { TitleClient } from "./extraction/title-client";
import type { Mailer } from "./mail/mailer";
import type { BlobStore } from "./storage/blob-store";

/** Everything a request handler or a job needs, passed explicitly instead of imported globals. */
export interface ServerContext {
  config: Config;
  database: Database;
  secrets: Secrets;
  clock: Clock;
  mailer: Mailer;
  blobs: BlobStore;
  courts: CourtConnector;
  /** The title extraction provider's client (document processing settings with provider FAI). */
  titles: TitleClient;
  /**
   * On a demo installation only (ECFX_DEMO): puts the caller's demo firm back as the first start
   * left it. Handed in by bootstrap because the reset seeds, and the API's floor is below the seed's.
   */
  resetDemoFirm?: (caller: Caller) => Promise<DemoResetResult>;
}
