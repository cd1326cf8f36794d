import { describe, expect, it } from "vitest";
import { toastForApiError } from "./api-errors";

describe("toastForApiError", () => {
  it("uses the spec's 409 text whatever the API said", () => {
    expect(toastForApiError(409, "duplicate key")).toEqual({ type: "error", key: "errors:conflict" });
  });
  it("uses the spec's 500 text and never shows the server's message", () => {
    expect(toastForApiError(500, "TypeError: x is undefined")).toEqual({ type: "error", key: "errors:internal" });
  });
  it("says when the API cannot be reached", () => {
    expect(toastForApiError(503, "errors:apiUnavailable")).toEqual({ type: "error", key: "errors:apiUnavailable" });
  });
  it("passes other API messages through", () => {
    expect(toastForApiError(400, "Some fields are not valid.")).toEqual({ type: "error", text: "Some fields are not valid." });
  });
});
