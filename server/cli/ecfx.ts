// The `ecfx` command: one entry point for operator tasks (parse, ingest, seed, ...).
type Command = (argv: string[]) => Promise<number>;

const commands: Record<string, () => Promise<Command>> = {
  parse: async () => (await import("./parse")).parseCommand,
  ingest: async () => (await import("./ingest")).ingestCommand,
  seed: async () => (await import("./seed")).seedCommand,
};

async function main(argv: string[]): Promise<number> {
  // As the server: what the commands create is for this user only (files 0600, folders 0700).
  process.umask(0o077);
  const [name, ...rest] = argv;
  const load = name ? commands[name] : undefined;
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
