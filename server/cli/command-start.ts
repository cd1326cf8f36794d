import { type Config, ConfigError, loadConfig } from "../config";

// What every `ecfx` command that opens the database does first, said once.

/** Answers a parse result that is a message: the usage (exit 0) for "", the message and usage (exit 2) otherwise. */
export function usageExit(command: string, message: string, usage: string): number {
  if (message) process.stderr.write(`ecfx ${command}: ${message}\n${usage}`);
  else process.stdout.write(usage);
  return message ? 2 : 0;
}

/** The product's settings for a command, quieter by default; undefined (said on stderr) when invalid. */
export function commandConfig(): Config | undefined {
  try {
    // A command's own output is what its user reads: the log says only what went wrong, unless asked.
    process.env.ECFX_LOG_LEVEL ??= process.env.LOG_LEVEL ?? "warn";
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return undefined;
  }
}
