// `ecfx parse FILE… [--json] [--full] [--out DIR]`: parse raw notice e-mails.
//
//   --json      print the parse as JSON (gold shape: the corpus scorer's fields).
//               One file: the JSON object. Several files: one line per file,
//               {"file": PATH, "result": {...}}.
//   --full      include ECFX's product fields (the full ParsedNotice).
//   --out DIR   write NAME.json per input into DIR instead of printing; inputs
//               from folders named nef/ or nda/ (the corpus layout), or from
//               several folders, go to DIR/<folder>/NAME.json.
//
// Without --json and --out, one summary line per file is printed.
// Messages that are not notices are written as {}.
// Exit status: 0 done, 1 some input could not be read or written, 2 usage error.
import { promises as fs } from "node:fs";
import path from "node:path";
import { goldShapeOf, parseNoticeEmail, type ParsedEmail } from "../notices";

const USAGE = `usage: ecfx parse FILE... [--json] [--full] [--out DIR]
  --json      print JSON in the corpus gold shape ({} for a message that is not a notice)
  --full      include the product fields (message_id, documents, sealed, ...)
  --out DIR   write NAME.json per input into DIR (nef/ and nda/ inputs go to DIR/nef, DIR/nda)
`;

interface Options {
  json: boolean;
  full: boolean;
  out: string | null;
  files: string[];
}

function parseArgs(argv: readonly string[]): Options | string {
  const opts: Options = { json: false, full: false, out: null, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--json") opts.json = true;
    else if (arg === "--full") opts.full = true;
    else if (arg === "--out") {
      const dir = argv[++i];
      if (!dir) return "--out needs a directory";
      opts.out = dir;
    } else if (arg.startsWith("--out=")) {
      opts.out = arg.slice(6);
      if (!opts.out) return "--out needs a directory";
    } else if (arg === "-h" || arg === "--help") return "";
    else if (arg === "--") {
      opts.files.push(...argv.slice(i + 1));
      break;
    } else if (arg.startsWith("-") && arg !== "-") return `unknown option ${arg}`;
    else opts.files.push(arg);
  }
  if (opts.files.length === 0) return "no input files";
  return opts;
}

function rendered(result: ParsedEmail, full: boolean): unknown {
  if (full) return result.kind === "notice" ? result.notice : {};
  return goldShapeOf(result);
}

function summary(file: string, result: ParsedEmail): string {
  if (result.kind !== "notice") return `${file}: ${result.kind} (${result.reason})`;
  const n = result.notice;
  const dockets = n.dockets.map((d) => d.docket_number).join(", ");
  return `${file}: ${n.notice_type} ${n.court_id ?? "unknown-court"} ${dockets} ${n.dockets[0]?.docket_entries[0]?.short_description ?? ""}`.trimEnd();
}

function outputPath(outDir: string, file: string, multipleDirs: boolean): string {
  const name = path.parse(file).name;
  const parent = path.basename(path.dirname(path.resolve(file)));
  const mirror = parent === "nef" || parent === "nda" || multipleDirs;
  return mirror ? path.join(outDir, parent, `${name}.json`) : path.join(outDir, `${name}.json`);
}

export async function parseCommand(argv: string[]): Promise<number> {
  const opts = parseArgs(argv);
  if (typeof opts === "string") {
    if (!opts) {
      process.stdout.write(USAGE);
      return 0;
    }
    process.stderr.write(`ecfx parse: ${opts}\n${USAGE}`);
    return 2;
  }

  const dirs = new Set(opts.files.map((f) => path.dirname(path.resolve(f))));
  const written = new Set<string>();
  let failures = 0;
  let notices = 0;
  for (const file of opts.files) {
    let raw: Buffer;
    try {
      raw = await fs.readFile(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === "ENOENT"
          ? "no such file"
          : code === "EISDIR"
            ? "is a directory"
            : code === "EACCES"
              ? "permission denied"
              : String((error as Error).message ?? error);
      process.stderr.write(`ecfx parse: cannot read ${file}: ${why}\n`);
      failures++;
      continue;
    }
    const result = await parseNoticeEmail(raw);
    if (result.kind === "notice") notices++;
    const value = rendered(result, opts.full);

    if (opts.out) {
      const target = outputPath(opts.out, file, dirs.size > 1);
      if (written.has(target)) process.stderr.write(`ecfx parse: warning: ${target} written twice (same file name), last input wins\n`);
      written.add(target);
      try {
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.writeFile(target, `${JSON.stringify(value, null, 2)}\n`);
      } catch (error) {
        process.stderr.write(`ecfx parse: cannot write ${target}: ${(error as Error).message}\n`);
        failures++;
      }
    } else if (opts.json) {
      const line = opts.files.length === 1 ? JSON.stringify(value, null, 2) : JSON.stringify({ file, result: value });
      process.stdout.write(`${line}\n`);
    } else {
      process.stdout.write(`${summary(file, result)}\n`);
    }
  }
  if (opts.out) {
    process.stderr.write(`ecfx parse: ${written.size} file(s) written to ${opts.out} (${notices} notice(s))\n`);
  }
  return failures > 0 ? 1 : 0;
}
