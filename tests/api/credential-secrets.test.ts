import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { FieldDef } from "../../app/common/resources/types";
import { resealAll, sealedColumns } from "../../server/cli/secret-rotation";
import { SERVER_RESOURCES } from "../../server/resources/registry";
import type { ServerResource } from "../../server/resources/types";
import { DEMO, api, login, useApi } from "./harness";

// No credential a firm types (a DMS password, an API key, a client secret, a token) or that ECFX
// makes for it (a webhook's signing secret) comes back from a read, a search or a CSV export, or
// goes into the event log or the process's log; each is stored sealed. Every entity is looked at,
// so a credential field added later is held to the same rules.

/** Names that say a field holds a credential. */
const CREDENTIAL_NAME = /(secret|password|passwd|token|api_?key|private_?key|basic_auth)/i;
const RECEIVER = "https://127.0.0.1:9";
/** Values a field's rules tie to another field's. */
const CHOSEN: Record<string, unknown> = { max_minutes_wait_for_stamp: 10, minutes_wait_before_unstamped_release: 5, subdomain: "value-subdomain" };

const secretFields = (res: ServerResource) => res.def.fields.filter((f) => f.secret || CREDENTIAL_NAME.test(f.name));
const withSecrets = SERVER_RESOURCES.filter((res) => res.writable && !res.view && secretFields(res).length > 0);

/** A value each field's declaration accepts; every credential field a canary of its own. */
function valueFor(field: FieldDef, canary: string): unknown {
  if (field.secret || CREDENTIAL_NAME.test(field.name)) return canary;
  if (field.name in CHOSEN) return CHOSEN[field.name];
  if (field.options) return field.options[0];
  switch (field.kind) {
    case "boolean":
      return false;
    case "number":
      return 1;
    case "properties":
      return {};
    default:
      return /url|endpoint/i.test(field.name) ? RECEIVER : `value_${field.name.replace(/\W/g, "")}`;
  }
}

describe("credentials are never given back, exported or logged", () => {
  let log = "";
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      log += chunk.toString("utf8");
      done();
    },
  });
  const server = useApi({
    backend: "sqlite",
    env: { LOG_LEVEL: "debug", ECFX_DMS_ALLOWED_ORIGINS: RECEIVER, ECFX_WEBHOOK_ALLOWED_ORIGINS: RECEIVER },
    logStream,
  });

  it("declares every field named like a credential secret", () => {
    const undeclared = SERVER_RESOURCES.flatMap((res) =>
      res.def.fields.filter((f) => CREDENTIAL_NAME.test(f.name) && !f.secret).map((f) => `${res.def.key}.${f.name}`),
    );
    expect(undeclared).toEqual([]);
  });

  it.each(withSecrets.map((res) => [res.def.key, res] as const))("%s: stored sealed, never read back, exported or logged", async (key, res) => {
    const admin = api(server().url, (await login(server().url, DEMO.admin)).access_token);
    const canaries: string[] = [];
    const body: Record<string, unknown> = {};
    for (const field of res.def.fields.filter((f) => !f.computed)) {
      const canary = `canary-${key}-${field.name}-${Math.random().toString(36).slice(2)}`;
      body[field.name] = valueFor(field, canary);
      if (body[field.name] === canary) canaries.push(canary);
    }
    const created = await admin.post(res.def.apiPath, body);
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;

    const stored = (await server()
      .ctx.database.db.selectFrom(res.table as "client")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow()) as Record<string, unknown>;
    for (const field of secretFields(res)) expect([field.name, server().ctx.secretBox.isSealed(String(stored[field.name]))]).toEqual([field.name, true]);

    const answers = [
      created.text,
      (await admin.get(`${res.def.apiPath}/${id}`)).text,
      (await admin.get(`${res.def.apiPath}/search?max=1000`)).text,
      (await admin.get(`${res.def.apiPath}/export`)).text,
      (await admin.request("PATCH", `${res.def.apiPath}/${id}`, { json: { [secretFields(res)[0]!.name]: `${canaries[0]}-changed` } })).text,
    ];
    const events = JSON.stringify(await server().ctx.database.db.selectFrom("event_log").selectAll().execute());
    for (const canary of canaries) {
      for (const [where, text] of [...answers.map((a, i) => [`answer ${i}`, a]), ["event log", events], ["process log", log]]) {
        expect([where, text!.includes(canary)]).toEqual([where, false]);
      }
    }
  });

  it("never gives back a webhook's signing secret but through its own reveal", async () => {
    const admin = api(server().url, (await login(server().url, DEMO.admin)).access_token);
    const created = await admin.post("/api/v1/webhook", { name: "Canary hook", url: `${RECEIVER}/hook`, events: ["notice.received"] });
    expect(created.status, created.text).toBe(201);
    const secret = (await admin.post(`/api/v1/webhook/${created.body.id}/secret`)).body.secret as string;
    expect(secret.length).toBeGreaterThan(16);
    const answers = [
      created.text,
      (await admin.get(`/api/v1/webhook/${created.body.id}`)).text,
      (await admin.get("/api/v1/webhook/search?max=1000")).text,
      (await admin.get("/api/v1/webhook/export")).text,
    ];
    const events = JSON.stringify(await server().ctx.database.db.selectFrom("event_log").selectAll().execute());
    for (const [where, text] of [...answers.map((a, i) => [`answer ${i}`, a]), ["event log", events], ["process log", log]]) {
      expect([where, text!.includes(secret)]).toEqual([where, false]);
    }
  });

  it("seals a credential kept in plain text from before its field was declared secret, as every start does", async () => {
    const { database, secretBox } = server().ctx;
    const firm = await database.db.selectFrom("firm").select("id").where("is_default", "=", 1).executeTakeFirstOrThrow();
    const id = "plain-filevine-key";
    const now = Date.now();
    await database.db
      .insertInto("file_vine_credential" as "client")
      .values({ id, firm_id: firm.id, name: "Kept before sealing", api_key: "plain-api-key-canary", created_at: now, updated_at: now } as never)
      .execute();
    const report = await resealAll(database.db, secretBox, sealedColumns(), true);
    expect(report.resealed).toBe(1);
    const row = (await database.db
      .selectFrom("file_vine_credential" as "client")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow()) as Record<string, unknown>;
    expect(secretBox.isSealed(String(row.api_key))).toBe(true);
    expect(secretBox.open(String(row.api_key))).toBe("plain-api-key-canary");
    // Sealed values are left as they are: a start seals nothing twice.
    expect((await resealAll(database.db, secretBox, sealedColumns(), true)).resealed).toBe(0);
  });
});
