import { describe, expect, it } from "vitest";
import { ApiError } from "../../utils/api.server";
import { firmSaveFailure } from "./firm-settings.server";

describe("a failed firm save", () => {
  it("shows the API's own text when it sent one (spec §8)", () => {
    const conflict = new ApiError(409, { message: "Another firm already answers to second.localhost." }, "/api/v1/firm/1");
    expect(firmSaveFailure(conflict)).toEqual({ type: "error", text: "Another firm already answers to second.localhost." });
  });

  it("falls back to the catalogue's words without a text, and names an unreachable API as such", () => {
    expect(firmSaveFailure(new ApiError(500, {}, "/api/v1/firm/1"))).toEqual({ type: "error", key: "errors:settingsUpdate" });
    expect(firmSaveFailure(new ApiError(503, { message: "errors:apiUnavailable" }, "/api/v1/firm/1"))).toEqual({ type: "error", key: "errors:apiUnavailable" });
  });
});
