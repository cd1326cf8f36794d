import { defineConfig } from "@playwright/test";
import { E2E_WORKERS, INSTANCES_READY, e2eInstance } from "./e2e/helpers";

// One product instance per worker, each with a fresh data folder of its own (e2eInstance in
// e2e/helpers.ts): several tests change demo users' passwords (and put them back), the firm record
// or reset the demo firm, so no two tests may share an instance; within a worker they run one at a
// time, and workers never share one.
//
// Ports: worker n uses console E2E_PORT + 10n (3100, 3110), API E2E_API_PORT + 10n (8180, 8190),
// SMTP the console port + 1000 and an analytics receiver the console port + 2000. Another run on
// the same machine picks other bases, e.g. E2E_PORT=3500 E2E_API_PORT=8580 (3500/3510, 8580/8590).
// E2E_WORKERS sets the number of workers and instances together (use it instead of --workers).
//
// This file is loaded again in every worker, where TEST_PARALLEL_INDEX names the worker's slot: the
// baseURL below is that worker's instance.
export default defineConfig({
  testDir: "./e2e",
  fullyParallel: false,
  workers: E2E_WORKERS,
  // No retries: a test that passes only on a second try is a bug to mend, not to hide.
  retries: 0,
  // The list, then the pages failed tests ended on (failure-pages.ts).
  reporter: [["list"], ["./e2e/failure-pages.ts"]],
  // Two workers share two cores with two products and two browsers (load 12 and more on a slow
  // machine): a page may take several times longer to answer than alone. Ceilings only; a passing
  // test never waits for them.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://localhost:${e2eInstance().port}`,
    launchOptions: {
      // Debian's headless shell: the same Chromium without the desktop browser around it, about
      // half the browser's CPU per test of the full browser's headless mode (decision 127).
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  // One command starts every instance at once (Playwright starts the servers of a list one after
  // the other) and says when all of them answer.
  webServer: {
    command: "npx tsx tests/e2e/serve.ts",
    cwd: "..",
    wait: { stdout: new RegExp(INSTANCES_READY) },
    // Starting is mostly compiling and migrating: slow on a busy machine.
    timeout: 240_000,
    env: {
      LOG_LEVEL: "warn",
      // Demo users and roles only: the browser tests make the firm data they need.
      ECFX_DEMO_DATA: "false",
      // A development installation's case retrieve, as under `npm start` (case-tracking.spec).
      ECFX_CASE_RETRIEVE: "true",
      // One API and one console process per instance: copies on every core (tests/api/every-core)
      // would only add processes to start and to share two cores with, for pages that are the same.
      ECFX_WEB_CONCURRENCY: "1",
      // Five-minute tokens: under the ten-minute mark, so every page load exercises the refresh.
      ECFX_ACCESS_TOKEN_TTL: "300",
      // Analytics go to a receiver the dashboard spec listens with (localhost is no production host).
      ECFX_ANALYTICS_TOKEN_DEV: "e2e-dev-token",
      E2E_INSTANCES: JSON.stringify(
        Array.from({ length: E2E_WORKERS }, (_, n) => {
          const instance = e2eInstance(n);
          return {
            PORT: String(instance.port),
            ECFX_API_PORT: String(instance.apiPort),
            ECFX_SMTP_PORT: String(instance.smtpPort),
            // Per port, so that instances and separate runs never share a database.
            ECFX_DATA_DIR: instance.dataDir,
            ECFX_ANALYTICS_URL: `http://127.0.0.1:${instance.analyticsPort}`,
            ECFX_BOX_BASE_URL: `http://127.0.0.1:${instance.boxPort}`,
            ECFX_CLIO_BASE_URL: `http://127.0.0.1:${instance.clioPort}`,
            ECFX_SALESFORCE_LOGIN_URL: `http://127.0.0.1:${instance.litifyPort}`,
            ECFX_FILEVINE_BASE_URL: `http://127.0.0.1:${instance.fileVinePort}`,
            ECFX_PACER_AUTH_URL: `http://127.0.0.1:${instance.pacerPort}`,
            ECFX_STRIPE_SECRET_KEY: "sk_test_e2e",
            ECFX_STRIPE_WEBHOOK_SECRET: "whsec_e2e",
            ECFX_STRIPE_BASE_URL: `http://127.0.0.1:${instance.stripePort}`,
            // Litify's instance URL and ProLaw's base URL are the credential's own: local ones are allowed.
            ECFX_DMS_ALLOWED_ORIGINS: [instance.litifyPort, instance.proLawPort].map((port) => `http://127.0.0.1:${port}`).join(","),
            // The OpenID Connect issuer of the single sign-on spec, local and plain http.
            ECFX_SSO_ALLOWED_ORIGINS: `http://127.0.0.1:${instance.oidcPort}`,
          };
        }),
      ),
    },
  },
});
