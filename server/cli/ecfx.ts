// The `ecfx` command: one entry point for operator tasks (parse, ingest, seed, ...).
import { setFlagsFromString } from "node:v8";

type Command = (argv: string[]) => Promise<number>;

const commands: Record<string, () => Promise<Command>> = {
  parse: async () => (await import("./parse")).parseCommand,
  ingest: async () => (await import("./ingest")).ingestCommand,
  seed: async () => (await import("./seed")).seedCommand,
  features: async () => (await import("./features")).featuresCommand,
  secrets: async () => (await import("./secrets")).secretsCommand,
};

/**
 * `ecfx parse FILE` alone is over in a tenth of a second: V8's optimising compiler would start
 * (about 4 MB of memory, a third of what the parse adds to the runtime) and win nothing back, so
 * it stays off. Batches keep it, where it pays.
 */
function tuneForOneParse(name: string | undefined, rest: string[]): void {
  if (name === "parse" && rest.filter((arg) => !arg.startsWith("-")).length === 1) setFlagsFromString("--no-opt");
}

async function main(argv: string[]): Promise<number> {
  // As the server: what the commands create is for this user only (files 0600, folders 0700).
  process.umask(0o077);
  const [name, ...rest] = argv;
  const load = name ? commands[name] : undefined;
  tuneForOneParse(name, rest);
  if (!load) {
    process.stderr.write(`usage: ecfx <${Object.keys(commands).join("|")}> [options]\n`);
    return 2;
  }
  return (await load())(rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
