import { beforeAll, describe, expect, it, vi } from "vitest";
import type { FirmBranding } from "../common/firm-schema";
import { firmStoreUpdate, readFirmStore, storedColours } from "./firm-store.server";

const branding: FirmBranding = {
  id: 7,
  name: "Smith & Jones",
  primary_color: "#7a1f5c",
  secondary_color: "#222222",
  has_logo: false,
  time_zone: "America/Chicago",
  signon_type: "local",
  entitled_features: ["ECFX_TRACK"],
  updated_at: 1_700_000_000_000,
};

/** A request carrying the cookie a response set (its name=value part). */
const withCookie = (setCookie: string) => new Request("http://localhost/login", { headers: { Cookie: setCookie.split(";")[0]! } });

describe("firm store (spec §4, version 2)", () => {
  // Cookies read the console's settings (Secure or not); a secret is all they require.
  beforeAll(() => vi.stubEnv("ECFX_SESSION_SECRET", "firm-store-test-secret-0123456789"));

  it("keeps the firm's colour, sign-on type, features and version, and wears the colour when signed out", async () => {
    const empty = await readFirmStore(new Request("http://localhost/login"));
    expect(storedColours(empty)).toBeNull();
    const set = await firmStoreUpdate(new Request("http://localhost/dashboard"), empty, branding);
    expect(set).toMatch(/^ecfx_firm=.*HttpOnly/);
    const stored = await readFirmStore(withCookie(set!));
    expect(stored).toEqual({ primaryColor: "#7a1f5c", signonType: "local", entitledFeatures: ["ECFX_TRACK"], versionRef: branding.updated_at });
    expect(storedColours(stored)).toEqual({ primary_color: "#7a1f5c" });
  });

  it("is written again only when the firm's version reference moves", async () => {
    const set = await firmStoreUpdate(new Request("http://localhost/"), await readFirmStore(new Request("http://localhost/")), branding);
    const stored = await readFirmStore(withCookie(set!));
    expect(await firmStoreUpdate(new Request("http://localhost/"), stored, branding)).toBeNull();
    const moved = await firmStoreUpdate(new Request("http://localhost/"), stored, {
      ...branding,
      primary_color: "#0b6e4f",
      updated_at: branding.updated_at + 1,
    });
    expect((await readFirmStore(withCookie(moved!))).primaryColor).toBe("#0b6e4f");
  });

  it("discards a store of another version", async () => {
    const { createCookie } = await import("@remix-run/node");
    const old = await createCookie("ecfx_firm").serialize({ v: 1, primaryColor: "#7a1f5c", signonType: "local", entitledFeatures: [], versionRef: 1 });
    const stored = await readFirmStore(withCookie(old));
    expect(stored.primaryColor).toBe("");
    expect(storedColours(stored)).toBeNull();
  });
});
