// `ecfx features [--firm ID] [--set FEATURE,...]`: shows a firm's entitled features or sets them.
// What a firm bought is ECFX's to set, never the firm's own (decision 048): this is where ECFX
// does it. Uses the same settings as `npm start` (DATABASE_URL, ECFX_DATA_DIR).
//
// Exit status: 0 done, 1 refused or failed, 2 usage error.
import { ENTITLED_FEATURES, isEntitledFeature } from "../../app/common/entitled-features";
import { openContext } from "../bootstrap";
import { commandConfig, usageExit } from "./command-start";
import { setEntitledFeatures } from "../firm/entitled-features";
import { syncServices } from "../billing/prices";
import { findFirm } from "../firm/firm-repository";
import { logEvent } from "../queue/event-log";
import { message } from "../lib/messages";
import { defaultFirmId } from "../seed/large";

const USAGE = `usage: ecfx features [--firm ID] [--set FEATURE,...]
  --firm ID   the firm (default: the demo firm)
  --set LIST  the firm's features from now on, comma-separated (empty: none) among
              ${ENTITLED_FEATURES.join(", ")}
  Without --set, prints the firm's features.
`;

interface Options {
  firm?: number;
  set?: string[];
}

function parseArgs(argv: readonly string[]): Options | string {
  const opts: Options = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] ?? "").split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i] ?? "";
    if (flag === "--firm") {
      opts.firm = Number(value());
      if (!Number.isInteger(opts.firm) || opts.firm <= 0) return "--firm needs a firm id";
    } else if (flag === "--set") {
      opts.set = value()
        .split(",")
        .map((f) => f.trim())
        .filter(Boolean);
      const unknown = opts.set.filter((f) => !isEntitledFeature(f));
      if (unknown.length) return `unknown feature ${unknown.join(", ")}`;
    } else if (flag === "-h" || flag === "--help") return "";
    else return `unknown option ${flag}`;
  }
  return opts;
}

export async function featuresCommand(argv: string[]): Promise<number> {
  const opts = parseArgs(argv);
  if (typeof opts === "string") return usageExit("features", opts, USAGE);
  const config = commandConfig();
  if (!config) return 1;
  const ctx = await openContext(config);
  try {
    const firmId = opts.firm ?? (await defaultFirmId(ctx.database));
    const firm = firmId === undefined ? undefined : await findFirm(ctx.database, firmId);
    if (!firm) {
      process.stderr.write(`ecfx features: no firm ${firmId ?? ""}\n`);
      return 1;
    }
    if (opts.set) {
      const now = ctx.clock.now();
      const set = await setEntitledFeatures(ctx.database, firm.id, opts.set, now);
      // What is billed follows the entitlement from this moment (decision 111).
      await syncServices(ctx.database.db, config, firm.id, ENTITLED_FEATURES, set, now);
      const detail = message("audit:featuresSet", { before: firm.entitled_features.join(", ") || "—", after: set.join(", ") || "—" });
      await logEvent(ctx.database.db, { firmId: firm.id, level: "AUDIT", event: "configuration changed", detail, at: now });
      process.stdout.write(`${firm.name}: ${set.join(", ") || "no features"}\n`);
    } else {
      process.stdout.write(`${firm.name}: ${firm.entitled_features.join(", ") || "no features"}\n`);
    }
    return 0;
  } finally {
    await ctx.database.close();
  }
}
