import { vi } from "vitest";

/** An `ecfx` sub-command (`firmCommand`, `featuresCommand`, …): its arguments in, its exit status out. */
type Command = (argv: string[]) => Promise<number>;

/**
 * Runs an `ecfx` sub-command in this process as its own process would run it with `env` (the
 * variables in `unset` removed): its exit status and what it wrote. A process of its own costs
 * seconds of compiling on a busy machine; that `ecfx` dispatches to the sub-commands is proven
 * from the compiled command by tests/unit/notices/cli-bin.test.ts.
 */
export async function runInProcess(command: Command, args: string[], env: Record<string, string>, unset: string[] = []) {
  const saved = { ...process.env };
  const written = { stdout: "", stderr: "" };
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((written.stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((written.stderr += String(chunk)), true));
  for (const name of unset) delete process.env[name];
  Object.assign(process.env, env);
  try {
    return { status: await command(args), ...written };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.env = saved;
  }
}
