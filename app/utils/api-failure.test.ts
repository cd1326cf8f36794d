import { describe, expect, it } from "vitest";
import { createLogger } from "../common/logger";
import { failureKey } from "./api-failure.server";
import { ApiError } from "./api.server";

describe("the words for an API call that failed while the page was drawn", () => {
  it("says what the API's answer meant", () => {
    expect(failureKey(new ApiError(401, {}, "/api/v1/dashboard"))).toBe("errors:sessionExpired");
    expect(failureKey(new ApiError(403, { message: "errors:forbidden" }, "/api/v1/dashboard"))).toBe("errors:forbidden");
    expect(failureKey(new ApiError(503, { message: "errors:apiUnavailable" }, "/api/v1/dashboard"))).toBe("errors:apiUnavailable");
    expect(failureKey(new ApiError(500, { message: "boom" }, "/api/v1/dashboard"))).toBe("errors:internal");
    expect(failureKey(new ApiError(400, { message: "errors:invalidRequest" }, "/api/v1/dashboard"))).toBe("errors:loadingFailed");
  });

  it("logs anything else and answers the internal error's words, never its text", () => {
    const lines: string[] = [];
    const log = createLogger({ level: "info", stream: { write: (line: string) => void lines.push(line) } });
    expect(failureKey(new TypeError("secret detail"), log)).toBe("errors:internal");
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({ level: "error", err: expect.objectContaining({ type: "TypeError", message: "secret detail" }) }),
    ]);
  });
});
