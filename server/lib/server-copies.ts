import cluster, { type Worker } from "node:cluster";
import { logger } from "../../app/common/logger";

// Several copies of one HTTP server on one port, one per core: Node's cluster hands each new
// connection to one copy. A copy that dies is started again; one that dies again and again within
// seconds of starting stops the whole process, so a broken start-up fails loudly instead of looping.

const QUICK_DEATH_MS = 5_000;
const MAX_QUICK_DEATHS = 5;

/**
 * V8 options of every copy. A copy per core leaves no core idle for V8's collector threads: they
 * would take turns with the other copies' main threads, so each copy collects on its own thread
 * (decision 079). There each scavenge pauses the copy's pages, and its cost is what it copies (the
 * requests in flight), not the garbage it frees: a young generation twice V8's default (32 MB
 * semi-spaces) collects half as often (decision 083). Measured: decisions 079 and 083.
 */
export const COPY_NODE_OPTIONS: readonly string[] = ["--single-threaded-gc", "--max-semi-space-size=32"];

export interface ServerCopies {
  stop(): Promise<void>;
}

export interface CopiesOptions {
  /** The script each copy runs, with its arguments. */
  exec: string;
  args: string[];
  count: number;
  /** Added to this process's environment for the copies. */
  env: Record<string, string>;
  /** What the copies are, for the log ("API", "Console"). */
  name: string;
}

/**
 * Starts copies of a server script as cluster workers. Only for a primary process; the copies
 * run the same script and must not start copies of their own (they see `isServerCopy()`).
 */
export function startServerCopies({ exec, args, count, env, name }: CopiesOptions): ServerCopies {
  // The process's own options last: V8 takes the last of a repeated option, so an operator's wins.
  cluster.setupPrimary({ exec, args, execArgv: [...COPY_NODE_OPTIONS, ...process.execArgv] });
  let stopping = false;
  let quickDeaths = 0;
  const startedAt = new Map<Worker, number>();

  const fork = () => {
    const worker = cluster.fork(env);
    startedAt.set(worker, Date.now());
    worker.on("exit", (code, signal) => {
      const lived = Date.now() - (startedAt.get(worker) ?? 0);
      startedAt.delete(worker);
      if (stopping) return;
      quickDeaths = lived < QUICK_DEATH_MS ? quickDeaths + 1 : 0;
      if (quickDeaths >= MAX_QUICK_DEATHS) {
        logger().error({ processes: name, quickDeaths }, `${name} processes stopped ${quickDeaths} times just after starting; giving up.`);
        process.exit(1);
      }
      logger().error(
        { processes: name, childPid: worker.process.pid, exit: signal ?? code },
        `${name} process ${worker.process.pid} stopped (${signal ?? code}); starting another.`,
      );
      fork();
    });
  };
  for (let i = 0; i < count; i++) fork();

  return {
    async stop() {
      stopping = true;
      const running = [...startedAt.keys()];
      await Promise.all(
        running.map(
          (worker) =>
            new Promise<void>((resolve) => {
              if (worker.isDead()) return resolve();
              worker.once("exit", () => resolve());
              worker.process.kill("SIGTERM");
            }),
        ),
      );
    },
  };
}

/** Whether this process is a copy started by `startServerCopies`. */
export const isServerCopy = () => cluster.isWorker;
