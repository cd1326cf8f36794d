import type { Kysely } from "kysely";
import * as m001 from "./001-initial";
import * as m002 from "./002-firm-data";
import * as m003 from "./003-import-jobs";
import * as m004 from "./004-search-indexes";
import * as m010 from "./010-inbox";
import * as m011 from "./011-notify-and-store";
import * as m012 from "./012-crash-safety";
import * as m013 from "./013-firm-max-import-size";
import * as m014 from "./014-parsed-message";
import * as m015 from "./015-dms-record-root";
import * as m016 from "./016-dashboard";

// Listed statically so a bundled build carries them; names sort in the order they run.
type Dialect = "sqlite" | "postgres";
type MigrationModule = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void> };

export const migrations: Record<string, MigrationModule> = {
  "001-initial": m001,
  "002-firm-data": m002,
  "003-import-jobs": m003,
  "004-search-indexes": m004,
  "010-inbox": m010,
  "011-notify-and-store": m011,
  "012-crash-safety": m012,
  "013-firm-max-import-size": m013,
  "014-parsed-message": m014,
  "015-dms-record-root": m015,
  "016-dashboard": m016,
};
