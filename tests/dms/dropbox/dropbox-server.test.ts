import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DropboxTestServer, startDropboxServer } from "./dropbox-server";
import { Stone } from "./stone";

// The local Dropbox holds the target to Dropbox's contract: a call whose arguments do not match
// Dropbox's published types is refused as Dropbox refuses it, and recorded.

let server: DropboxTestServer;
let token: string;

beforeEach(async () => {
  server = await startDropboxServer();
  const settings = server.credentialSettings() as { app_key: string; app_secret: string; refresh_token: string };
  const answer = await fetch(`${server.origin}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: settings.refresh_token,
      client_id: settings.app_key,
      client_secret: settings.app_secret,
    }),
  });
  token = ((await answer.json()) as { access_token: string }).access_token;
});

afterEach(async () => {
  await server.close();
});

const rpc = (route: string, body: unknown) =>
  fetch(`${server.origin}/2/${route}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("the local Dropbox", () => {
  it("answers a call that matches the contract and records nothing", async () => {
    const answer = await rpc("files/create_folder_v2", { path: "/ECFX/Matters", autorename: false });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ metadata: { name: "Matters", path_display: "/ECFX/Matters" } });
    expect(server.contractViolations()).toEqual([]);
  });

  it("refuses arguments Dropbox's types do not allow with a 400 in plain text, and records it", async () => {
    const answer = await rpc("files/get_metadata", { path: "ECFX/no-leading-slash", include_everything: true });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toMatch(/^Error in call to API function "files\/get_metadata": request body: /);
    expect(server.contractViolations()).toHaveLength(1);
  });

  it("refuses an upload whose arguments are not in the Dropbox-API-Arg header", async () => {
    const answer = await fetch(`${server.origin}/2/files/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
      body: Buffer.from("bytes"),
    });
    expect(answer.status).toBe(400);
    expect(server.contractViolations()).toEqual(['files/upload: Must provide HTTP header "Dropbox-API-Arg" or URL parameter "arg".']);
  });

  it("answers a route error with 409 and Dropbox's error summary", async () => {
    const answer = await rpc("files/get_metadata", { path: "/nothing/here.pdf" });
    expect(answer.status).toBe(409);
    expect(await answer.json()).toEqual({ error_summary: "path/not_found/..", error: { ".tag": "path", path: { ".tag": "not_found" } } });
  });

  it("refuses a wrong field name, a wrong type, a union member Dropbox does not have and a wrong path root, each by Dropbox's Stone types", async () => {
    const calls: [string, Promise<Response>][] = [
      ["has no field auto_rename", rpc("files/create_folder_v2", { path: "/ECFX/A", auto_rename: false })],
      ["/autorename: not a Boolean", rpc("files/create_folder_v2", { path: "/ECFX/A", autorename: "no" })],
      ["CreateFolderArg.path is required", rpc("files/create_folder_v2", { autorename: false })],
      [
        '"replace" is not a member of WriteMode',
        fetch(`${server.origin}/2/files/upload`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/octet-stream",
            "dropbox-api-arg": JSON.stringify({ path: "/ECFX/a.pdf", mode: "replace" }),
          },
          body: Buffer.from("bytes"),
        }),
      ],
      [
        "Dropbox-API-Path-Root",
        fetch(`${server.origin}/2/files/list_folder`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "dropbox-api-path-root": JSON.stringify({ ".tag": "team_root" }) },
          body: JSON.stringify({ path: "/ECFX" }),
        }),
      ],
    ];
    for (const [why, call] of calls) {
      const answer = await call;
      expect(answer.status, why).toBe(400);
      expect(await answer.text(), why).toContain(why);
    }
    expect(server.contractViolations()).toHaveLength(calls.length);
  });
});

describe("the Stone reader", () => {
  const dir = new URL("../../fixtures/dropbox-api/", import.meta.url);
  const stone = new Stone(["files", "file_properties", "common", "async", "users_common", "account_id"].map((name) => new URL(`${name}.stone`, dir).pathname));
  const metadata = stone.type("files", "Metadata");
  const folder = { name: "A", path_lower: "/a", path_display: "/A", id: "id:abcd" };

  it("reads structs with subtypes, nullable fields and defaults, unions and aliases with patterns", () => {
    expect(stone.check(metadata, { ".tag": "folder", ...folder })).toEqual([]);
    expect(stone.check(metadata, folder)).toEqual(['/: Metadata names its subtype in ".tag"']);
    expect(stone.check(stone.type("files", "FolderMetadata"), folder)).toEqual([]);
    expect(stone.check(stone.type("files", "FolderMetadata"), { ...folder, size: 3 })).toEqual(["/: FolderMetadata has no field size"]);
    // CommitInfo: mode defaults to add, autorename to false; WriteMode.update carries a Rev.
    const commit = stone.type("files", "CommitInfo");
    expect(stone.check(commit, { path: "/a.pdf" })).toEqual([]);
    expect(stone.check(commit, { path: "/a.pdf", mode: { ".tag": "update", update: "0123456789" } })).toEqual([]);
    expect(stone.check(commit, { path: "/a.pdf", mode: { ".tag": "update", update: "x" } })).toEqual([
      "/mode/update: shorter than 9",
      '/mode/update: "x" does not match [0-9a-f]+',
    ]);
    expect(stone.check(commit, { path: "/a.pdf", client_modified: "2026-11-28 10:00" })).toEqual(["/client_modified: not a Timestamp (%Y-%m-%dT%H:%M:%SZ)"]);
    // A field's union defined in place (PropertyFieldTemplate.type).
    const field = stone.type("file_properties", "PropertyFieldTemplate");
    expect(stone.check(field, { name: "n", description: "d", type: "string" })).toEqual([]);
    expect(stone.check(field, { name: "n", description: "d", type: "number" })[0]).toMatch(/"number" is not a member of PropertyType/);
  });

  it("maps versioned routes to their URL names", () => {
    expect([...stone.routes.keys()]).toEqual(
      expect.arrayContaining(["files/create_folder_v2", "files/upload_session/append_v2", "file_properties/templates/add_for_user"]),
    );
  });
});
