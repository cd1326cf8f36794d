// The `ecfx` command: one entry point for operator tasks (parse, ingest, seed, ...).
// The compiled bin runs `parse` from a bundle of its own (parse-alone.ts); this entry serves the
// other commands, and every command under tsx.
import { runCommand, type Command } from "./run-command";

const commands: Record<string, () => Promise<Command>> = {
  parse: async () => (await import("./parse")).parseCommand,
  ingest: async () => (await import("./ingest")).ingestCommand,
  seed: async () => (await import("./seed")).seedCommand,
  features: async () => (await import("./features")).featuresCommand,
  secrets: async () => (await import("./secrets")).secretsCommand,
  firm: async () => (await import("./firm")).firmCommand,
  billing: async () => (await import("./billing")).billingCommand,
};

const [name, ...rest] = process.argv.slice(2);
const load = name ? commands[name] : undefined;
if (load) runCommand(load, rest);
else {
  process.stderr.write(`usage: ecfx <${Object.keys(commands).join("|")}> [options]\n`);
  process.exitCode = 2;
}
