import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3100);
// Other ports (E2E_PORT, E2E_API_PORT) let several runs share one machine.
const API_PORT = Number(process.env.E2E_API_PORT ?? 8180);

// One product instance with a fresh data folder; tests run one at a time because several
// of them change demo users' passwords (and put them back).
export default defineConfig({
  testDir: "./e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 30_000,
  use: {
    baseURL: `http://localhost:${PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
  webServer: {
    command: "npx tsx tests/e2e/serve.ts",
    cwd: "..",
    url: `http://localhost:${PORT}/healthcheck`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(PORT),
      ECFX_API_PORT: String(API_PORT),
      ECFX_SMTP_PORT: String(PORT + 1000),
      // Per port, so that separate runs on other ports never share a database.
      ECFX_DATA_DIR: `tests/.tmp/e2e-data-${PORT}`,
      LOG_LEVEL: "warn",
      // Demo users and roles only: the browser tests make the firm data they need.
      ECFX_DEMO_DATA: "false",
      // Five-minute tokens: under the ten-minute mark, so every page load exercises the refresh.
      ECFX_ACCESS_TOKEN_TTL: "300",
      // Analytics go to a receiver the dashboard spec listens with (localhost is no production host).
      ECFX_ANALYTICS_TOKEN_DEV: "e2e-dev-token",
      ECFX_ANALYTICS_URL: `http://127.0.0.1:${PORT + 2000}`,
    },
  },
});
