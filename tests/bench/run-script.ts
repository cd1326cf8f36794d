/**
 * Runs a benchmark script's `main` and exits once its output is written: handles the product's
 * processes leave open (sockets, timers) would otherwise keep the script alive; a failure exits 1.
 */
export function runScript(main: () => Promise<void>): void {
  main().then(
    () => process.stdout.write("", () => process.exit(0)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
