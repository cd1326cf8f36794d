// `ecfx seed --size large|small [--firm ID] [--force]`: fill a firm with generated clients,
// matters, cases and timekeepers for load tests. Uses the same settings as `npm start`
// (DATABASE_URL, ECFX_DATA_DIR), migrating the database and creating the demo firms if needed.
//
// Exit status: 0 seeded, 1 refused or failed, 2 usage error.
import { openContext } from "../bootstrap";
import { commandConfig, usageExit } from "./command-start";
import { SEED_SIZES, type SeedSize, SeedRefused, defaultFirmId, seedLarge } from "../seed/large";

const USAGE = `usage: ecfx seed --size large|small [--firm ID] [--force]
  --size     large: 5,000 clients, 20,000 matters, 100,000 cases, 2,000 timekeepers
             small: 200 cases and the rest to scale
  --firm ID  the firm to fill (default: the demo firm)
  --force    seed a firm that already has cases; rows of an earlier seed are replaced,
             all other rows are kept
`;

interface Options {
  size: SeedSize;
  firm?: number;
  force: boolean;
}

function parseArgs(argv: readonly string[]): Options | string {
  let size: string | undefined;
  let firm: number | undefined;
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] ?? "").split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "--size") size = value();
    else if (flag === "--firm") {
      firm = Number(value());
      if (!Number.isInteger(firm) || firm <= 0) return "--firm needs a firm id";
    } else if (flag === "--force") force = true;
    else if (flag === "-h" || flag === "--help") return "";
    else return `unknown option ${flag}`;
  }
  if (!size || !(size in SEED_SIZES)) return "--size must be large or small";
  return { size: size as SeedSize, firm, force };
}

export async function seedCommand(argv: string[]): Promise<number> {
  const opts = parseArgs(argv);
  if (typeof opts === "string") return usageExit("seed", opts, USAGE);
  const config = commandConfig();
  if (!config) return 1;
  const ctx = await openContext(config);
  try {
    const firmId = opts.firm ?? (await defaultFirmId(ctx.database));
    if (firmId === undefined) {
      process.stderr.write("ecfx seed: there is no firm yet; start once with ECFX_DEMO=true or pass --firm\n");
      return 1;
    }
    process.stdout.write(`Seeding firm ${firmId} (${opts.size}) on ${ctx.database.dialect}…\n`);
    const report = await seedLarge(ctx.database, {
      firmId,
      size: opts.size,
      force: opts.force,
      log: (line) => process.stdout.write(`  ${line}\n`),
    });
    const total = Object.values(report.counts).reduce((a, b) => a + b, 0);
    process.stdout.write(`Seeded ${total} rows in ${report.seconds.toFixed(1)} s\n`);
    return 0;
  } catch (error) {
    if (error instanceof SeedRefused) {
      process.stderr.write(`ecfx seed: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await ctx.database.close();
  }
}
