// `ecfx secrets rotate [--reseal-only]` and `ecfx secrets status`: the keys that seal the firms'
// secrets (DMS passwords, API keys, OAuth tokens) and the values each key seals. Uses the same
// settings as `npm start` (DATABASE_URL, ECFX_DATA_DIR, ECFX_SECRET_KEYS). Decision 052.
//
// Exit status: 0 done, 1 refused, failed, or some values did not open (listed), 2 usage error.
import { type SecretBox, addSecretKey } from "../auth/secret-box";
import { openContext } from "../bootstrap";
import { commandConfig, usageExit } from "./command-start";
import { type ResealReport, type SealedCounts, countSealed, resealAll } from "./secret-rotation";

const USAGE = `usage: ecfx secrets rotate [--reseal-only] | ecfx secrets status
  rotate         puts a new key first in the data folder's key file, then seals every
                 stored secret again under it; older keys stay listed and still open
  --reseal-only  seals again under the current first key without adding one (the way to
                 rotate when the keys come from ECFX_SECRET_KEYS)
  status         lists the keys and how many stored secrets each one seals
`;

type Action = "rotate" | "reseal" | "status";

function parseArgs(argv: readonly string[]): Action | { usage: string } {
  const [verb, ...flags] = argv;
  if (verb === undefined || verb === "-h" || verb === "--help") return { usage: "" };
  if (verb !== "rotate" && verb !== "status") return { usage: `unknown action ${verb}` };
  let resealOnly = false;
  for (const flag of flags) {
    if (flag === "--reseal-only" && verb === "rotate") resealOnly = true;
    else if (flag === "-h" || flag === "--help") return { usage: "" };
    else return { usage: `unknown option ${flag}` };
  }
  return verb === "status" ? "status" : resealOnly ? "reseal" : "rotate";
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What `rotate` prints: counts, then every value that did not open, so none goes unnoticed. */
export function describeReseal(box: SecretBox, report: ResealReport): string {
  const lines = [`Sealing key: ${box.currentKeyId}`, `Sealed again: ${plural(report.resealed, "value")}; already under ${box.currentKeyId}: ${report.current}`];
  if (report.unreadable.length > 0) {
    lines.push(`${plural(report.unreadable.length, "value")} did not open and ${report.unreadable.length === 1 ? "was" : "were"} left as stored:`);
    for (const u of report.unreadable) lines.push(`  ${u.table} ${u.id} ${u.column}: ${u.reason}`);
  }
  return `${lines.join("\n")}\n`;
}

/** What `status` prints: each configured key (the sealing one first), then keys values name that are no longer configured. */
export function describeStatus(box: SecretBox, counts: SealedCounts): string {
  const configured = box.keyIds;
  const lines = configured.map((id, i) => `${id}  ${plural(counts.byKey.get(id) ?? 0, "value")}${i === 0 ? "  (seals)" : ""}`);
  for (const [id, n] of counts.byKey) if (!configured.includes(id)) lines.push(`${id}  ${plural(n, "value")}  (not configured: these do not open)`);
  if (counts.plain > 0) lines.push(`not sealed  ${plural(counts.plain, "value")}`);
  return `${lines.join("\n")}\n`;
}

export async function secretsCommand(argv: string[]): Promise<number> {
  const action = parseArgs(argv);
  if (typeof action !== "string") return usageExit("secrets", action.usage, USAGE);
  if (action === "rotate" && process.env.ECFX_SECRET_KEYS) {
    process.stderr.write(
      "ecfx secrets: the keys come from ECFX_SECRET_KEYS; put a new key first in ECFX_SECRET_KEYS on every machine, restart, and run `ecfx secrets rotate --reseal-only`\n",
    );
    return 1;
  }
  const config = commandConfig();
  if (!config) return 1;
  const ctx = await openContext(config);
  try {
    if (action === "status") {
      process.stdout.write(describeStatus(ctx.secretBox, await countSealed(ctx.database.db)));
      return 0;
    }
    // The context made the key file if there was none, so the new key goes in front of the old one.
    const box = action === "rotate" ? addSecretKey(config.dataDir) : ctx.secretBox;
    const report = await resealAll(ctx.database.db, box);
    process.stdout.write(describeReseal(box, report));
    return report.unreadable.length > 0 ? 1 : 0;
  } finally {
    await ctx.database.close();
  }
}
