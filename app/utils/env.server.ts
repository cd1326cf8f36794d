import { z } from "zod";

/** ECFX_SESSION_SECRET lists one or more secrets separated by commas. */
export function sessionSecrets(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

// The console's own settings, validated once. It never touches the database: only the API.
const schema = z.object({
  ECFX_API_URL: z.string().url().default("http://127.0.0.1:8080"),
  // Several secrets separated by commas: the first seals the session cookie, all of them open it.
  ECFX_SESSION_SECRET: z
    .string()
    .refine((v) => sessionSecrets(v).length > 0 && sessionSecrets(v).every((s) => s.length >= 16), "each secret must be at least 16 characters"),
  ECFX_COOKIE_SECURE: z.enum(["auto", "true", "false"]).default("auto"),
  ECFX_API_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
});

let env: z.infer<typeof schema> | undefined;

export function consoleEnv(): z.infer<typeof schema> {
  if (env) return env;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid console configuration:\n${lines.join("\n")}`);
  }
  env = parsed.data;
  return env;
}

/** Secure cookies unless told otherwise; "auto" relaxes it only for plain-http localhost. */
export function cookieSecure(request: Request): boolean {
  const setting = consoleEnv().ECFX_COOKIE_SECURE;
  if (setting !== "auto") return setting === "true";
  const url = new URL(request.url);
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  return !(local && url.protocol === "http:");
}
