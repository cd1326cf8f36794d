import fs from "node:fs";
import { openContext } from "../bootstrap";
import { loadConfig } from "../config";
import { firmForAddress, receiveMessage } from "../inbox/receive";

/**
 * `ecfx ingest --to ADDRESS FILE…`: puts .eml files into a firm's inbox by the same path as the
 * SMTP listener; a running worker processes them.
 */
export async function ingestCommand(argv: string[]): Promise<number> {
  const toIndex = argv.indexOf("--to");
  const to = toIndex >= 0 ? argv[toIndex + 1] : undefined;
  const files = argv.filter((_, i) => i !== toIndex && i !== toIndex + 1);
  if (!to || files.length === 0) {
    process.stderr.write("usage: ecfx ingest --to INBOX-ADDRESS FILE.eml…\n");
    return 2;
  }
  const ctx = await openContext(loadConfig());
  try {
    const firmId = await firmForAddress(ctx, to);
    if (!firmId) {
      process.stderr.write(`No inbox at ${to}\n`);
      return 1;
    }
    for (const file of files) {
      const id = await receiveMessage(ctx, { firmId, raw: fs.readFileSync(file), source: "CLI", recipients: [to] });
      process.stdout.write(`${file}: inbox item ${id}\n`);
    }
    return 0;
  } finally {
    await ctx.database.close();
  }
}
