import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { FIRST_FIRM_HINT, firmCommand } from "../../server/cli/firm";
import { openDatabase } from "../../server/db/database";
import { api, login } from "./harness";
import { BUILD_PRODUCT_MS, buildServerOnce } from "./build-once";
import { runInProcess } from "./command-in-process";
import { type Product, freePort, killGroup, spawnProduct } from "./product-processes";

// The container and compose start a real, empty installation: no demo firms, no published demo
// password, no court simulator; the first start says how to create the first firm, and
// `ecfx firm create` does it. Docker itself does not run here: the product is started with the
// settings the image and compose give it.

/** The settings of the Dockerfile's last stage (the image that runs). */
function imageEnv(): Record<string, string> {
  const text = fs.readFileSync("Dockerfile", "utf8").replace(/\\\n/g, " ");
  const lastStage = text.slice(text.lastIndexOf("\nFROM "));
  const env: Record<string, string> = {};
  for (const line of lastStage.split("\n").filter((l) => l.startsWith("ENV "))) {
    for (const [, name, value] of line.matchAll(/([A-Z_]+)=(\S+)/g)) env[name!] = value!;
  }
  return env;
}

/** Each compose service's environment, with the shared block merged in. */
function composeEnvs(): Record<string, Record<string, unknown>> {
  const doc = parse(fs.readFileSync("compose.yaml", "utf8"), { merge: true }) as {
    services: Record<string, { image?: string; environment?: Record<string, unknown> }>;
  };
  return Object.fromEntries(
    Object.entries(doc.services)
      .filter(([, service]) => service.image?.startsWith("ecfx"))
      .map(([name, service]) => [name, service.environment ?? {}]),
  );
}

describe("the container's installation", () => {
  const { DATABASE_URL: _database, ...inherited } = process.env;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-container-"));
  let product: Product | undefined;
  let apiUrl = "";

  const commandEnv = (): Record<string, string> => ({ ...imageEnv(), ECFX_DATA_DIR: dataDir, NODE_ENV: "test", LOG_LEVEL: "silent" });
  /** The `ecfx` command as an operator runs it. */
  const ecfx = (args: string[], input?: string) =>
    spawnSync(path.resolve("node_modules/.bin/tsx"), ["server/cli/ecfx.ts", "firm", ...args], {
      encoding: "utf8",
      input,
      env: { ...inherited, ...commandEnv() },
    });
  /** The same command in this process. */
  const firm = (args: string[]) => runInProcess(firmCommand, args, commandEnv(), ["DATABASE_URL"]);

  beforeAll(buildServerOnce, BUILD_PRODUCT_MS);

  beforeAll(async () => {
    const [port, apiPort, smtpPort] = [await freePort(), await freePort(), await freePort()];
    apiUrl = `http://127.0.0.1:${apiPort}`;
    product = spawnProduct({
      ...imageEnv(),
      ECFX_DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${path.join(dataDir, "ecfx.sqlite")}`,
      PORT: String(port),
      ECFX_API_PORT: String(apiPort),
      ECFX_SMTP_PORT: String(smtpPort),
      // The console's build is not what this is about; every other part runs as in the image.
      ECFX_ROLES: "api,worker,smtp",
      ECFX_WEB_CONCURRENCY: "1",
      LOG_LEVEL: "info",
    });
    await product.waitFor("ECFX API on", 180_000);
  }, 200_000);

  afterAll(async () => {
    await killGroup(product);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("is set to no demo and no case retrieve, in the image and in every compose service", () => {
    expect(imageEnv()).toMatchObject({ ECFX_DEMO: "false", ECFX_CASE_RETRIEVE: "false" });
    const services = composeEnvs();
    expect(Object.keys(services).sort()).toEqual(["api", "console", "smtp", "worker"]);
    for (const [name, env] of Object.entries(services)) expect([name, env.ECFX_DEMO, env.ECFX_CASE_RETRIEVE]).toEqual([name, "false", "false"]);
  });

  it("starts with no firm, no demo user and no court simulator, and says how to create the first firm", async () => {
    // A JSON log line: the hint's line breaks are escaped in it.
    expect(product!.output()).toContain(JSON.stringify(FIRST_FIRM_HINT).slice(1, -1));
    expect(product!.output()).not.toContain("Court simulator");
    expect(product!.output()).not.toContain("Demo sign-in");
    const database = openDatabase(`sqlite:${path.join(dataDir, "ecfx.sqlite")}`);
    try {
      expect(await database.db.selectFrom("firm").select("id").execute()).toEqual([]);
      expect(await database.db.selectFrom("app_user").select("id").execute()).toEqual([]);
    } finally {
      await database.close();
    }
    expect((await api(apiUrl).post("/auth/login", { username: "admin@demo.ecfx.test", password: "Demo-Passw0rd!" })).status).toBe(401);
  });

  it("creates the first firm and its administrator with `ecfx firm create`, who then signs in", async () => {
    const created = ecfx(
      [
        "create",
        "--name",
        "Hale & Pine LLP",
        "--admin-email",
        "Harriet@Hale-Pine.example",
        "--admin-name",
        "Harriet Hale",
        "--inbox",
        "notices@hale-pine.example",
        "--password-stdin",
      ],
      "Str0ng-first-passw0rd\n",
    );
    expect([created.status, created.stderr]).toEqual([0, ""]);
    expect(created.stdout).toBe(
      "Created firm 1, Hale & Pine LLP, at http://localhost:3000.\nAdministrator: harriet@hale-pine.example.\nInbox: notices@hale-pine.example.\n",
    );
    const session = await login(apiUrl, "harriet@hale-pine.example", "Str0ng-first-passw0rd");
    const admin = api(apiUrl, session.access_token);
    expect((await admin.get("/auth/me")).body).toMatchObject({ fullName: "Harriet Hale", roleName: "Administrator", isAdmin: true });
    expect((await admin.get("/api/v1/firm")).body).toMatchObject({ name: "Hale & Pine LLP" });
    // The first firm is the default one: the console's own address shows its sign-in page.
    expect((await api(apiUrl).get("/api/v1/firm/public?host=localhost:3000")).body.name).toBe("Hale & Pine LLP");

    // A second firm, on a host of its own, with a password made for it and printed once.
    const second = await firm([
      "create",
      "--name",
      "Ode Partners",
      "--admin-email",
      "ops@ode.example",
      "--admin-name",
      "Olu Ode",
      "--inbox",
      "court@ode.example",
      "--host",
      "Ode.Example:443",
    ]);
    expect([second.status, second.stderr]).toEqual([0, ""]);
    const password = /password (\S+) \(shown once/.exec(second.stdout)?.[1] ?? "";
    expect(second.stdout).toContain("Created firm 2, Ode Partners, at host ode.example.");
    await login(apiUrl, "ops@ode.example", password);
    expect((await api(apiUrl).get("/api/v1/firm/public?host=ode.example")).body.name).toBe("Ode Partners");
  }, 120_000);

  it("refuses what would clash with another firm or is no firm at all", async () => {
    const third: Record<string, string> = {
      "--name": "Third LLP",
      "--admin-email": "third@third.example",
      "--admin-name": "Tess Third",
      "--inbox": "notices@third.example",
    };
    const create = (changes: Record<string, string | null>) => [
      "create",
      ...Object.entries({ ...third, ...changes }).flatMap(([flag, value]) => (value === null ? [] : [flag, value])),
    ];
    const cases: [string[], number, string][] = [
      [create({ "--admin-email": null }), 2, "ecfx firm: --admin-email: This field is required."],
      [create({ "--inbox": null }), 2, "ecfx firm: --inbox: This field is required."],
      [create({ "--host": "0x7f.1" }), 1, "ecfx firm: 127.0.0.1 is an IP address: a firm answers to host names only."],
      [create({ "--host": "оde.example" }), 1, "ecfx firm: оde.example looks like ode.example, which another firm answers to."],
      [create({ "--admin-email": "harriet@hale-pine.example" }), 1, "ecfx firm: a user with e-mail harriet@hale-pine.example already exists"],
      [create({ "--inbox": "court@ode.example" }), 1, "ecfx firm: court@ode.example is already a firm's inbox"],
    ];
    for (const [args, status, text] of cases) {
      const run = await firm(args);
      expect([args.join(" "), run.status, run.stderr.split("\n")[0]]).toEqual([args.join(" "), status, text]);
    }
  }, 120_000);
});
