import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DropboxTestServer, startDropboxServer } from "./dropbox-server";

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
});
