// Runs one `ecfx` sub-command as the process: umask first, then the command's exit status (or
// its error) ends the process.
export type Command = (argv: string[]) => Promise<number>;

export function runCommand(command: () => Promise<Command>, argv: string[]): void {
  // As the server: what the commands create is for this user only (files 0600, folders 0700).
  process.umask(0o077);
  command()
    .then((run) => run(argv))
    .then(
      (code) => process.exit(code),
      (error: unknown) => {
        process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
        process.exit(1);
      },
    );
}
