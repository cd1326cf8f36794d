import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";
import { solidPng } from "./png";
import { selfSignedCertificate } from "../../server/auth/self-signed-certificate";

const Firm = protobuf.loadSync(fileURLToPath(new URL("../../proto/firm.proto", import.meta.url))).lookupType("ecfx.Firm");
const PROTOBUF = "application/x-protobuf";

type FirmJson = Record<string, unknown> & { id: number; name: string };

const decodeFirm = (bytes: Uint8Array) => Firm.toObject(Firm.decode(bytes), { longs: Number, defaults: true, arrays: true }) as Record<string, unknown>;
const encodeFirm = (value: Record<string, unknown>) => Firm.encode(Firm.fromObject(value)).finish();

const IDP_CERTIFICATE = selfSignedCertificate("idp", new Date()).certificatePem;

const BRANDING_KEYS = ["entitled_features", "has_logo", "id", "name", "primary_color", "secondary_color", "signon_type", "time_zone", "updated_at"];

/** Every setting a save may change, each different from the demo firm's defaults (entitled features are ECFX's: entitled-features.test.ts). */
const CHANGED = {
  name: "Demo Law LLP & Partners, Inc.",
  signon_type: "saml",
  max_case_deletions_on_import: 250,
  default_daily_cadence_delivery_time: "18:30",
  public_document_access: true,
  manually_process_notices: true,
  manual_process_emails: ["clerk@demo.ecfx.test", "docket@demo.ecfx.test"],
  store_notice_as_docket_text: true,
  max_email_attachment_size: 10_485_760,
  primary_color: "#123456",
  secondary_color: "#abcdef",
  default_delivery_method: "PDF_AND_DMS_LINK",
  default_notification_cadence: "DAILY_AND_REALTIME",
  internal_walls_enabled: true,
  storage_policy_hierarchy: ["firm", "client", "matter", "case"],
  storage_policy_id: "policy-7",
  prefers_combined_documents: true,
  default_email_template_id: "template-3",
  additional_receipt_emails: ["records@demo.ecfx.test"],
  error_notification_emails: ["ops@demo.ecfx.test", "it@demo.ecfx.test"],
  error_notification_level: "WARNING",
  ignored_case_statuses: ["closed", "stayed"],
  reply_to_email: "docketing-desk@demo.ecfx.test",
  wait_for_dms_attempt_to_notify: true,
  case_not_found_report_emails: ["cnf@demo.ecfx.test"],
  web_preferences: '{"theme":"dark","pageSize":50}',
  default_time_zone: "America/Chicago",
  dms_failure_report_emails: ["dms@demo.ecfx.test"],
  import_warning_threshold: 500,
  accepted_email_domains: ["demo.ecfx.test", "uscourts.gov"],
  ignored_email_domains: ["spam.example.com"],
  extract_document_web_links: true,
  host_names: ["demo-law.example.test"],
};

describe.each(backends)("reading the firm, its branding and its logo (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);

  it("gives a firm admin the whole record as JSON", async () => {
    const admin = await sessionOf(DEMO.admin);
    const res = await api(server().url, admin.access_token).get("/api/v1/firm");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      name: "Demo Law LLP",
      signon_type: "local",
      primary_color: "#1c4f8a",
      has_logo: expect.any(Boolean),
      internal_walls_state: "unapplied",
      reply_to_email: "",
      manual_process_emails: [],
      storage_policy_hierarchy: ["firm", "location", "practice_group", "client", "matter", "case"],
    });
    expect(res.body).not.toHaveProperty("logo");
    expect(res.body).not.toHaveProperty("is_default");
    for (const key of Object.keys(CHANGED)) expect(res.body).toHaveProperty(key);
  });

  it("gives the same record as a Firm message when asked for protobuf", async () => {
    const admin = await sessionOf(DEMO.admin);
    const client = api(server().url, admin.access_token);
    const json = (await client.get("/api/v1/firm")).body as FirmJson;
    const res = await client.get("/api/v1/firm", { accept: PROTOBUF });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/x-protobuf/);
    const firm = decodeFirm(res.bytes);
    for (const field of Firm.fieldsArray) {
      const key = field.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      expect([key, firm[field.name]]).toEqual([key, json[key] ?? (field.repeated ? [] : field.type === "string" ? "" : json[key])]);
    }
    expect(firm).toMatchObject({ name: "Demo Law LLP", primaryColor: "#1c4f8a", maxEmailAttachmentSize: 26_214_400 });
    expect(firm.createdAt).toBe(json.created_at);
  });

  it("gives users without firm access the branding only", async () => {
    for (const email of [DEMO.viewOnly, DEMO.docketing]) {
      const session = await sessionOf(email);
      const client = api(server().url, session.access_token);
      const res = await client.get("/api/v1/firm");
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(BRANDING_KEYS);
      expect(res.body.name).toBe("Demo Law LLP");

      const binary = await client.get("/api/v1/firm", { accept: PROTOBUF });
      expect(binary.status).toBe(200);
      const firm = decodeFirm(binary.bytes);
      expect(firm.name).toBe("Demo Law LLP");
      expect(firm.defaultTimeZone).toBe("");
      expect(firm.maxCaseDeletionsOnImport).toBe(0);
    }
  });

  it("requires a signed-in caller", async () => {
    expect((await api(server().url).get("/api/v1/firm")).status).toBe(401);
  });

  const firmIds = async () => {
    const admin = await sessionOf(DEMO.admin);
    const second = await sessionOf(DEMO.secondAdmin);
    return {
      admin: api(server().url, admin.access_token),
      demoId: ((await api(server().url, admin.access_token).get("/api/v1/firm")).body as FirmJson).id,
      secondId: ((await api(server().url, second.access_token).get("/api/v1/firm")).body as FirmJson).id,
    };
  };

  it("serves the branding of the firm configured for a host, without sign-in", async () => {
    const { demoId, secondId } = await firmIds();
    const client = api(server().url);
    const second = await client.get("/api/v1/firm/public?host=second.localhost");
    expect(second.status).toBe(200);
    expect(Object.keys(second.body).sort()).toEqual(BRANDING_KEYS);
    expect(second.body).toMatchObject({ id: secondId, name: "Second Chair & Co", primary_color: "#5b2a86", secondary_color: "#2a8656" });
    expect((await client.get("/api/v1/firm/public?host=SECOND.localhost:3000")).body.id).toBe(secondId);
    expect((await client.get("/api/v1/firm/public?host=unknown.example.com")).body.id).toBe(demoId);
    expect((await client.get("/api/v1/firm/public")).body.id).toBe(demoId);
  });

  it("stores a PNG logo and serves it back", async () => {
    const { admin, demoId, secondId } = await firmIds();
    const png = solidPng(4, 4);
    const upload = await admin.request("PUT", "/api/v1/firm/logo.png", { body: png, headers: { "content-type": "image/png" } });
    expect(upload.status).toBe(200);
    expect(upload.body).toEqual({ logo: "/api/v1/firm/logo.png" });

    const logo = await api(server().url).get(`/api/v1/firm/logo.png?firm=${demoId}`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(logo.bytes).equals(png)).toBe(true);
    expect(((await admin.get("/api/v1/firm")).body as FirmJson).has_logo).toBe(true);
    expect((await api(server().url).get(`/api/v1/firm/public?host=demo`)).body.has_logo).toBe(true);

    // The other firm's logo is untouched.
    expect((await api(server().url).get(`/api/v1/firm/logo.png?firm=${secondId}`)).status).toBe(404);
  });

  it("refuses a file that is not a PNG, an empty one and one of 1 MB or more", async () => {
    const { admin } = await firmIds();
    const upload = (body: Uint8Array, type = "image/png") => admin.request("PUT", "/api/v1/firm/logo.png", { body, headers: { "content-type": type } });
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
    const oneMegabyte = Buffer.concat([solidPng(), Buffer.alloc(1024 * 1024 - solidPng().length)]);
    const twoMegabytes = Buffer.concat([solidPng(), Buffer.alloc(2 * 1024 * 1024)]);
    for (const [label, res] of [
      ["jpeg bytes", await upload(jpeg)],
      ["empty", await upload(new Uint8Array())],
      ["1 MB", await upload(oneMegabyte)],
      ["2 MB", await upload(twoMegabytes)],
      ["jpeg type", await upload(jpeg, "image/jpeg")],
    ] as const) {
      expect([label, res.status]).toEqual([label, 400]);
      expect([label, res.body?.message]).toEqual([label, "Image Upload Failed"]);
    }
    const justUnder = Buffer.concat([solidPng(), Buffer.alloc(1024 * 1024 - 1 - solidPng().length)]);
    expect((await upload(justUnder)).status).toBe(200);
  });

  it("refuses a logo upload without FULL firm access", async () => {
    const manager = await sessionOf(DEMO.manager);
    const res = await api(server().url, manager.access_token).request("PUT", "/api/v1/firm/logo.png", {
      body: solidPng(),
      headers: { "content-type": "image/png" },
    });
    expect(res.status).toBe(403);
    const anonymous = await api(server().url).request("PUT", "/api/v1/firm/logo.png", {
      body: solidPng(),
      headers: { "content-type": "image/png" },
    });
    expect(anonymous.status).toBe(401);
  });

  it("answers 404 for the logo of a firm that has none or does not exist", async () => {
    const { secondId } = await firmIds();
    const client = api(server().url);
    expect((await client.get(`/api/v1/firm/logo.png?firm=${secondId}`)).status).toBe(404);
    expect((await client.get("/api/v1/firm/logo.png?firm=999999")).status).toBe(404);
    expect((await client.get("/api/v1/firm/logo.png?firm=abc")).status).toBe(404);
    expect((await client.get("/api/v1/firm/logo.png")).status).toBe(404);
  });
});

describe.each(backends)("PUT /api/v1/firm/:id (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);

  const asAdmin = async () => {
    const admin = await sessionOf(DEMO.admin);
    const client = api(server().url, admin.access_token);
    // A firm switches to SAML only once its identity provider is described (decision 099).
    const idp = await client.put("/api/v1/firm/sso", {
      idp_entity_id: "https://idp.example.test/metadata",
      idp_sso_url: "https://idp.example.test/sso",
      idp_certificates: IDP_CERTIFICATE,
      break_glass_email: DEMO.admin,
    });
    expect(idp.status, idp.text).toBe(200);
    const firm = (await client.get("/api/v1/firm")).body as FirmJson;
    return { client, firm };
  };

  it("refuses identity provider certificates that are not certificates, with the field named", async () => {
    const client = api(server().url, (await sessionOf(DEMO.admin)).access_token);
    for (const idp_certificates of ["not a certificate", "-----BEGIN CERTIFICATE-----\nTUlJ\n-----END CERTIFICATE-----"]) {
      const res = await client.put("/api/v1/firm/sso", {
        idp_entity_id: "https://idp.example.test/metadata",
        idp_sso_url: "https://idp.example.test/sso",
        idp_certificates,
      });
      expect(res.status, idp_certificates).toBe(400);
      expect(res.body.fieldErrors.idp_certificates).toEqual(["Enter the identity provider's certificates in PEM form."]);
    }
  });

  /** Later tests sign staff in with passwords: the firm goes back to password sign-in. */
  const backToPasswords = async (client: ReturnType<typeof api>) => {
    const firm = (await client.get("/api/v1/firm")).body as FirmJson;
    expect((await client.put(`/api/v1/firm/${firm.id}`, { ...firm, signon_type: "local" })).status).toBe(200);
  };

  it("saves every field of the record sent back modified, as JSON", async () => {
    const { client, firm } = await asAdmin();
    const sent = { ...firm, ...CHANGED };
    const res = await client.put(`/api/v1/firm/${firm.id}`, sent);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ...CHANGED,
      id: firm.id,
      created_at: firm.created_at,
      // Turning walls on is carried out by the worker: until then the walls are being applied.
      internal_walls_state: "applying",
      has_logo: false,
    });
    const reread = (await client.get("/api/v1/firm")).body as FirmJson;
    expect(reread).toEqual(res.body);
    for (const [key, value] of Object.entries(CHANGED)) expect([key, reread[key]]).toEqual([key, value]);

    // Saving what was read changes nothing (but the time of the save).
    const again = await client.post(`/api/v1/firm/${firm.id}`, reread);
    expect(again.status).toBe(200);
    expect({ ...again.body, updated_at: 0 }).toEqual({ ...reread, updated_at: 0 });
    await backToPasswords(client);
  });

  it("saves a Firm message sent as protobuf", async () => {
    const { client, firm } = await asAdmin();
    const changed = { ...CHANGED, name: "Demo Law Binary", primary_color: "#0a0b0c", public_document_access: false, host_names: [] };
    const camel = Object.fromEntries(Object.entries({ ...firm, ...changed }).map(([k, v]) => [protobuf.util.camelCase(k), v]));
    const res = await client.request("PUT", `/api/v1/firm/${firm.id}`, { body: encodeFirm(camel), headers: { "content-type": PROTOBUF } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(changed);
    const binary = decodeFirm((await client.get("/api/v1/firm", { accept: PROTOBUF })).bytes);
    expect(binary).toMatchObject({
      name: "Demo Law Binary",
      primaryColor: "#0a0b0c",
      publicDocumentAccess: false,
      replyToEmail: CHANGED.reply_to_email,
    });
    await backToPasswords(client);
  });

  it("converts counts sent as text and normalises colours and e-mail addresses", async () => {
    const { client, firm } = await asAdmin();
    const res = await client.put(`/api/v1/firm/${firm.id}`, {
      ...firm,
      import_warning_threshold: "750",
      max_case_deletions_on_import: "20",
      primary_color: "ABC",
      secondary_color: "#DDEEFF",
      reply_to_email: "  Desk@Demo.ECFX.test ",
      additional_receipt_emails: ["Records@Demo.ecfx.test"],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      import_warning_threshold: 750,
      max_case_deletions_on_import: 20,
      primary_color: "#aabbcc",
      secondary_color: "#ddeeff",
      reply_to_email: "desk@demo.ecfx.test",
      additional_receipt_emails: ["records@demo.ecfx.test"],
    });
  });

  it("refuses a name longer than 60 characters", async () => {
    const { client, firm } = await asAdmin();
    const res = await client.put(`/api/v1/firm/${firm.id}`, { ...firm, name: "A".repeat(61) });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors.name).toEqual(["Field length must be less than 60 characters long"]);
    const ok = await client.put(`/api/v1/firm/${firm.id}`, { ...firm, name: "A".repeat(60) });
    expect(ok.status).toBe(200);
  });

  it("refuses characters a firm name may not hold, and an empty name", async () => {
    const { client, firm } = await asAdmin();
    for (const name of ["Demo <Law>", "Demo/Law", "Demo_Law", "Démo Law"]) {
      const res = await client.put(`/api/v1/firm/${firm.id}`, { ...firm, name });
      expect([name, res.status]).toEqual([name, 400]);
      expect(res.body.fieldErrors.name).toEqual(["Only letters, digits, spaces and , : - + . & are allowed."]);
    }
    const empty = await client.put(`/api/v1/firm/${firm.id}`, { ...firm, name: "   " });
    expect(empty.status).toBe(400);
    expect(empty.body.fieldErrors.name).toContain("This field is required.");
  });

  it("refuses a repeated e-mail address in a list", async () => {
    const { client, firm } = await asAdmin();
    const res = await client.put(`/api/v1/firm/${firm.id}`, {
      ...firm,
      error_notification_emails: ["ops@demo.ecfx.test", "OPS@demo.ecfx.test"],
    });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors["error_notification_emails.1"]).toEqual(["Email added already"]);
    const invalid = await client.put(`/api/v1/firm/${firm.id}`, { ...firm, manual_process_emails: ["not-an-address"] });
    expect(invalid.status).toBe(400);
    expect(invalid.body.fieldErrors["manual_process_emails.0"]).toEqual(["Enter a valid email address."]);
  });

  it("refuses an invalid colour, domain, enumeration value or time", async () => {
    const { client, firm } = await asAdmin();
    const cases: [Record<string, unknown>, string][] = [
      [{ primary_color: "#12345g" }, "primary_color"],
      [{ secondary_color: "blue" }, "secondary_color"],
      [{ accepted_email_domains: ["not a domain"] }, "accepted_email_domains.0"],
      [{ default_delivery_method: "CARRIER_PIGEON" }, "default_delivery_method"],
      [{ default_daily_cadence_delivery_time: "25:00" }, "default_daily_cadence_delivery_time"],
      [{ import_warning_threshold: -1 }, "import_warning_threshold"],
      [{ storage_policy_hierarchy: ["firm", "galaxy"] }, "storage_policy_hierarchy.1"],
    ];
    for (const [change, field] of cases) {
      const res = await client.put(`/api/v1/firm/${firm.id}`, { ...firm, ...change });
      expect([field, res.status]).toEqual([field, 400]);
      expect(Object.keys(res.body.fieldErrors)).toContain(field);
    }
    const colour = await client.put(`/api/v1/firm/${firm.id}`, { ...firm, primary_color: "#12345g" });
    expect(colour.body.fieldErrors.primary_color).toEqual(["Enter a colour such as #1c4f8a."]);
  });

  it("refuses a save with fields missing", async () => {
    const { client, firm } = await asAdmin();
    const res = await client.put(`/api/v1/firm/${firm.id}`, { name: "Only A Name" });
    expect(res.status).toBe(400);
    expect(res.body.fieldErrors).toHaveProperty("signon_type");
    expect(((await client.get("/api/v1/firm")).body as FirmJson).name).toBe(firm.name);
  });

  it("refuses a host name another firm already answers to", async () => {
    const { client, firm } = await asAdmin();
    const res = await client.put(`/api/v1/firm/${firm.id}`, { ...firm, host_names: ["demo-law.example.test", "Second.Localhost"] });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("Another firm already answers to second.localhost.");
    expect((await api(server().url).get("/api/v1/firm/public?host=second.localhost")).body.name).toBe("Second Chair & Co");
    expect(((await client.get("/api/v1/firm")).body as FirmJson).host_names).toEqual(firm.host_names);
  });

  it("refuses a Manager, who may only read the firm", async () => {
    const { firm } = await asAdmin();
    const manager = await sessionOf(DEMO.manager);
    const client = api(server().url, manager.access_token);
    expect((await client.get("/api/v1/firm")).body.id).toBe(firm.id);
    const res = await client.put(`/api/v1/firm/${firm.id}`, { ...firm, name: "Managed Away" });
    expect(res.status).toBe(403);
    const viewOnly = await sessionOf(DEMO.viewOnly);
    expect((await api(server().url, viewOnly.access_token).put(`/api/v1/firm/${firm.id}`, firm)).status).toBe(403);
  });

  it("does not find another firm's record", async () => {
    const { client, firm } = await asAdmin();
    const second = await sessionOf(DEMO.secondAdmin);
    const secondFirm = (await api(server().url, second.access_token).get("/api/v1/firm")).body as FirmJson;
    expect(secondFirm.id).not.toBe(firm.id);
    const res = await client.put(`/api/v1/firm/${secondFirm.id}`, { ...secondFirm, name: "Taken Over" });
    expect(res.status).toBe(404);
    expect((await client.put("/api/v1/firm/not-a-number", firm)).status).toBe(404);
    expect(((await api(server().url, second.access_token).get("/api/v1/firm")).body as FirmJson).name).toBe("Second Chair & Co");
  });
});
