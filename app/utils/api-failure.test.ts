import { afterEach, describe, expect, it, vi } from "vitest";
import { failureKey } from "./api-failure.server";
import { ApiError } from "./api.server";

describe("the words for an API call that failed while the page was drawn", () => {
  afterEach(() => vi.restoreAllMocks());

  it("says what the API's answer meant", () => {
    expect(failureKey(new ApiError(401, {}, "/api/v1/dashboard"))).toBe("errors:sessionExpired");
    expect(failureKey(new ApiError(403, { message: "errors:forbidden" }, "/api/v1/dashboard"))).toBe("errors:forbidden");
    expect(failureKey(new ApiError(503, { message: "errors:apiUnavailable" }, "/api/v1/dashboard"))).toBe("errors:apiUnavailable");
    expect(failureKey(new ApiError(500, { message: "boom" }, "/api/v1/dashboard"))).toBe("errors:internal");
    expect(failureKey(new ApiError(400, { message: "errors:invalidRequest" }, "/api/v1/dashboard"))).toBe("errors:loadingFailed");
  });

  it("logs anything else and answers the internal error's words, never its text", () => {
    const logged = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    expect(failureKey(new TypeError("secret detail"))).toBe("errors:internal");
    const lines = logged.mock.calls.map(([line]) => JSON.parse(String(line)) as { level: string; err: { type: string } });
    expect(lines).toEqual([expect.objectContaining({ level: "error", err: expect.objectContaining({ type: "TypeError" }) })]);
  });
});
