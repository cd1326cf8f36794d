import { describe, expect, it } from "vitest";
import { AUTHORIZATION_STATE_TTL_SECONDS, signAuthorizationState, verifyAuthorizationState } from "./authorization-state";

// The state handed to a vendor's consent page: it names who asked, it expires, and neither another
// key nor a changed byte passes.

const claims = { firmId: 7, userId: "u-1", kind: "clio_credential", credentialId: "c-1" };
const at = (now: number, key = "k".repeat(32)) => ({ secrets: { tokenSigningKey: key } as never, clock: { now: () => now } as never });

describe("the vendor authorization state", () => {
  it("gives back the firm, person and credential it was signed for", async () => {
    const state = await signAuthorizationState(at(1_000_000), claims);
    expect(await verifyAuthorizationState(at(1_000_000 + 60_000), state)).toEqual({ ok: true, claims });
  });

  it("expires after ten minutes", async () => {
    const state = await signAuthorizationState(at(1_000_000), claims);
    expect(await verifyAuthorizationState(at(1_000_000 + (AUTHORIZATION_STATE_TTL_SECONDS + 1) * 1000), state)).toEqual({ ok: false, problem: "expired" });
  });

  it("refuses a state under another key, a changed one and a sign-in token's shape", async () => {
    const state = await signAuthorizationState(at(1_000_000), claims);
    expect(await verifyAuthorizationState(at(1_000_000, "x".repeat(32)), state)).toEqual({ ok: false, problem: "invalid" });
    const [head, body, signature] = state.split(".");
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, "base64url").toString()), firm: 8 })).toString("base64url");
    expect(await verifyAuthorizationState(at(1_000_000), `${head}.${forged}.${signature}`)).toEqual({ ok: false, problem: "invalid" });
    expect(await verifyAuthorizationState(at(1_000_000), "not-a-state")).toEqual({ ok: false, problem: "invalid" });
  });
});
