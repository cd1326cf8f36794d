// Loaded with `node --import` (NODE_OPTIONS, which refuses --cpu-prof): profiles a console server
// process from its start and writes a .cpuprofile into ECFX_CPU_PROFILE_DIR when told to stop.
import fs from "node:fs";
import { Session } from "node:inspector";
import path from "node:path";

const dir = process.env.ECFX_CPU_PROFILE_DIR;
if (dir && process.argv.some((a) => /console-serve|console\/serve/.test(a))) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.start");
  // At SIGTERM, not at exit: the server waits for open keep-alive connections and gets killed.
  // A main-thread session answers synchronously, so the file is written before that.
  process.once("SIGTERM", () => {
    session.post("Profiler.stop", (error, result) => {
      if (!error) fs.writeFileSync(path.join(dir, `console-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
