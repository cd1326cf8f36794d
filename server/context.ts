import type { DemoResetResult } from "../app/common/demo-reset";
import type { Caller } from "./auth/caller";
import type { Config } from "./config";
import type { Database } from "./db/database";
import type { Secrets } from "./auth/secrets";
import type { SecretBox } from "./auth/secret-box";
import type { OutboundGuard } from "./outbound/guard";
import type { Clock } from "./lib/clock";
import type { CourtConnector } from "./courts/connector";
import type { TitleClient } from "./extraction/title-client";
import type { Mailer } from "./mail/mailer";
import type { BlobStore } from "./blobs/blob-store";

/** Everything a request handler or a job needs, passed explicitly instead of imported globals. */
export interface ServerContext {
  config: Config;
  database: Database;
  secrets: Secrets;
  /** Seals and opens what the product keeps for firms (DMS passwords, keys, tokens) under keys outside the database. */
  secretBox: SecretBox;
  /** The guard of calls to firms' DMS: vendor origins the operator switched and named on-premises origins are reached as they are. */
  dmsGuard: OutboundGuard;
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
