// esbuild plugin for every compiled build of server/: a bundle has no migrations folder to read
// at run time, so its migrations module lists the folder's files when it is built.
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../server/db/migrations");

export const migrationList = {
  name: "migration-list",
  setup(build) {
    build.onLoad({ filter: /server[\\/]db[\\/]migrations[\\/]index\.ts$/ }, () => {
      const names = readdirSync(MIGRATIONS)
        .map((file) => /^(\d{3}-[a-z0-9-]+)\.ts$/.exec(file)?.[1])
        .filter(Boolean)
        .sort();
      const imports = names.map((name, i) => `import * as m${i} from "./${name}.ts";`).join("\n");
      const entries = names.map((name, i) => `${JSON.stringify(name)}: m${i}`).join(", ");
      return { contents: `${imports}\nexport async function loadMigrations() { return { ${entries} }; }\n`, loader: "ts", resolveDir: MIGRATIONS };
    });
  },
};
