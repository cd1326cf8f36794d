import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact";

describe("redactUrl", () => {
  it("hides public document tokens, reset tokens and tokens in a query, and keeps the rest", () => {
    expect(redactUrl("/public/document/eyJhbGciOi.abc.def")).toBe("/public/document/[redacted]");
    expect(redactUrl("/api/v1/public/document/eyJ.x.y?download=1")).toBe("/api/v1/public/document/[redacted]?download=1");
    expect(redactUrl("/public/document/eyJ.x.y.data")).toBe("/public/document/[redacted]");
    expect(redactUrl("/password-reset?token=s3cr3t&from=%2F")).toBe("/password-reset?token=[redacted]&from=%2F");
    expect(redactUrl("/x?a=1&refresh_token=abc")).toBe("/x?a=1&refresh_token=[redacted]");
    expect(redactUrl("/cases?page=2&sort=-created_at")).toBe("/cases?page=2&sort=-created_at");
  });
});
