import { describe, expect, it } from "vitest";
import { findResource } from "../../common/resources";
import { ApiError } from "../../utils/api.server";
import type { ApiClient } from "../../utils/auth.server";
import { createRecordOf } from "./create.server";

// Spec §8: a wizard whose create fails on the API's side says the entity's creation failure
// ('Timekeeper creation failed. Try again later.', ... 'Item creation failed' for the rest); a
// refusal the user can act on keeps the API's own words.

const answering = (status: number, body: unknown): ApiClient => ({
  sessionKey: "test",
  raw: async () => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }),
  json: async () => {
    throw new Error("not used");
  },
});

const away: ApiClient = {
  sessionKey: "test",
  raw: async () => {
    throw new ApiError(503, { message: "errors:apiUnavailable" }, "/api/v1/timekeeper");
  },
  json: async () => {
    throw new Error("not used");
  },
};

const formError = async (key: string, api: ApiClient) => {
  const outcome = await createRecordOf(api, findResource(key)!, { name: "x" });
  return outcome.ok ? null : outcome.formError;
};

describe("a failed create in a wizard", () => {
  it.each([
    ["timekeepers", "errors:timekeeperCreation"],
    ["abbreviations", "errors:abbreviationCreation"],
    ["storage-policies", "errors:storagePolicyCreation"],
    ["clients", "errors:itemCreation"],
    ["judges", "errors:itemCreation"],
  ])("of %s on an API failure says %s", async (key, expected) => {
    expect(await formError(key, answering(500, { message: "Error code: 500. Internal server error" }))).toBe(expected);
    expect(await formError(key, away)).toBe(expected);
  });

  it("keeps the API's words for a conflict the user can resolve", async () => {
    const conflict = "Error code: 409. Entity already exists. Make sure fields are unique.";
    expect(await formError("timekeepers", answering(409, { message: conflict }))).toBe(conflict);
  });
});
