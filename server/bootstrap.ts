import type { Config } from "./config";
import type { ServerContext } from "./context";
import { loadOrCreateSecrets } from "./auth/secrets";
import { migrateToLatest, openDatabase } from "./db/database";
import { seedDemo } from "./db/seed/demo";
import { seedReferenceData } from "./db/seed/reference-data";
import { type Clock, systemClock } from "./lib/clock";
import { createMailer } from "./mail/mailer";

/** Opens the database (migrated), the secrets and the mailer: what every server role needs. */
export async function openContext(config: Config, clock: Clock = systemClock): Promise<ServerContext> {
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  await seedReferenceData(database);
  const secrets = loadOrCreateSecrets(config.dataDir);
  const mailer = createMailer({ database, clock, from: config.ECFX_MAIL_FROM, relayUrl: config.ECFX_SMTP_RELAY_URL });
  if (config.ECFX_DEMO) await seedDemo(database, config.ECFX_DEMO_PASSWORD, clock.now());
  return { config, database, secrets, clock, mailer };
}
