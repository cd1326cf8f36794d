import { describe, expect, it } from "vitest";
import { logCapture } from "../../tests/log-capture";
import { createLogger, currentRequestId, inRequestScope, isAssetPath, logLevelOf, requestIdOf } from "./logger";

// The one logger: JSON lines with ISO times and level names, secrets replaced, errors as objects,
// the level the environment sets.

describe("the logger", () => {
  it("writes JSON lines with an ISO time and the level's name", () => {
    const log = logCapture();
    createLogger({ level: "info", stream: log.stream }).info({ itemId: "i1" }, "stage");
    const [line] = log.lines();
    expect(line).toMatchObject({ level: "info", itemId: "i1", msg: "stage" });
    expect(new Date(String(line!.time)).toISOString()).toBe(line!.time);
  });

  it("writes only lines at or above its level, and nothing when silent", () => {
    const log = logCapture();
    const warn = createLogger({ level: "warn", stream: log.stream });
    warn.debug("d");
    warn.info("i");
    warn.warn("w");
    warn.error("e");
    expect(log.lines().map((l) => l.level)).toEqual(["warn", "error"]);
    const quiet = logCapture();
    createLogger({ level: "silent", stream: quiet.stream }).fatal("f");
    expect(quiet.text()).toBe("");
  });

  it("takes its level from ECFX_LOG_LEVEL, else LOG_LEVEL, else info", () => {
    expect(logLevelOf({ ECFX_LOG_LEVEL: "debug", LOG_LEVEL: "warn" })).toBe("debug");
    expect(logLevelOf({ LOG_LEVEL: "warn" })).toBe("warn");
    expect(logLevelOf({})).toBe("info");
    expect(logLevelOf({ ECFX_LOG_LEVEL: "loud" })).toBe("info");
  });

  it("replaces credentials, cookies and authorization headers", () => {
    const log = logCapture();
    createLogger({ level: "info", stream: log.stream }).info(
      {
        password: "pw-1",
        body: { token: "tok-2", code: "code-3", state: "state-4", name: "kept" },
        headers: { authorization: "Bearer tok-5", cookie: "ecfx_session=tok-6", "set-cookie": "a=tok-7", accept: "text/html" },
        req: { headers: { authorization: "Basic tok-8" } },
      },
      "with secrets",
    );
    const text = log.text();
    for (const secret of ["pw-1", "tok-2", "code-3", "state-4", "tok-5", "tok-6", "tok-7", "tok-8"]) expect(text).not.toContain(secret);
    expect(log.lines()[0]).toMatchObject({ password: "[redacted]", body: { token: "[redacted]", name: "kept" }, headers: { accept: "text/html" } });
  });

  it("writes an error as an object with its type, message and stack", () => {
    const log = logCapture();
    class CourtTimeout extends Error {}
    createLogger({ level: "info", stream: log.stream }).error({ err: new CourtTimeout("court did not answer") }, "stage failed");
    const err = log.lines()[0]!.err as Record<string, unknown>;
    expect(err).toMatchObject({ type: "CourtTimeout", message: "court did not answer" });
    expect(String(err.stack)).toContain("court did not answer\n    at ");
  });

  it("tells static files and the route manifest from pages", () => {
    for (const path of ["/build/entry.client-X1.js", "/build/_assets/tailwind-2.css", "/__manifest", "/favicon.svg", "/monaco/vs/loader.js"])
      expect(isAssetPath(path), path).toBe(true);
    for (const path of ["/cases", "/inbox-items/id/abc", "/cases.data", "/api/v1/health"]) expect(isAssetPath(path), path).toBe(false);
  });

  it("keeps a well-formed request id, makes one up otherwise, and knows the one being served", () => {
    expect(requestIdOf("abc-123")).toBe("abc-123");
    expect(requestIdOf("has space")).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(undefined)).toMatch(/^[0-9a-f-]{36}$/);
    expect(currentRequestId()).toBeUndefined();
    expect(inRequestScope("r-1", () => currentRequestId())).toBe("r-1");
  });
});
