import { describe, expect, it } from "vitest";
import { featureEnabled, requireFeature, setEntitledFeatures } from "../../server/firm/entitled-features";
import { DEMO, api, backends, sessionsOf, useApi } from "./harness";

// Spec §6: the entitled features switch product parts on and off, and what a firm bought is set
// by ECFX, never by the firm's own administrators; retrieve follows the installation's setting alone.

describe.each(backends)("entitled features (%s)", (backend) => {
  const server = useApi({ backend });
  const sessionOf = sessionsOf(server);

  const firmOf = async (email: string) => {
    const client = api(server().url, (await sessionOf(email)).access_token);
    const firm = (await client.get("/api/v1/firm")).body as Record<string, unknown> & { id: number; entitled_features: string[] };
    return { client, firm };
  };

  it("does not let a firm's administrator give the firm a feature or take one away", async () => {
    const { client, firm } = await firmOf(DEMO.admin);
    await setEntitledFeatures(server().ctx.database, firm.id, ["ECFX_TRACK"], Date.now());
    const current = { ...firm, entitled_features: ["ECFX_TRACK"] };
    for (const features of [["ECFX_TRACK", "FAI_TITLE_EXTRACTION"], [], ["FAI_TITLE_EXTRACTION"], ["SOMETHING_ELSE"]]) {
      const res = await client.put(`/api/v1/firm/${firm.id}`, { ...current, entitled_features: features });
      expect([features, res.status]).toEqual([features, 403]);
      expect(res.body.message).toBe("The firm's features are set by ECFX with its subscription; they cannot be changed here.");
    }
    expect((await firmOf(DEMO.admin)).firm.entitled_features).toEqual(["ECFX_TRACK"]);
    // The settings page sends the list back as it read it: the rest of the save goes through.
    const saved = await client.put(`/api/v1/firm/${firm.id}`, {
      ...current,
      reply_to_email: "desk@demo.ecfx.test",
      entitled_features: ["ECFX_TRACK", "ECFX_TRACK"],
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ reply_to_email: "desk@demo.ecfx.test", entitled_features: ["ECFX_TRACK"] });
    await setEntitledFeatures(server().ctx.database, firm.id, [], Date.now());
  });

  it("tells each firm the features it has, and nothing of another firm's; no host the caller names turns retrieve on", async () => {
    const demo = await firmOf(DEMO.admin);
    const second = await firmOf(DEMO.secondAdmin);
    await setEntitledFeatures(server().ctx.database, demo.firm.id, ["FAI_TITLE_EXTRACTION", "ECFX_TRACK"], Date.now());
    const parts = async (client: typeof demo.client, host: string) => (await client.get(`/api/v1/firm/features?host=${encodeURIComponent(host)}`)).body.parts;
    expect(await parts(demo.client, "console.ecfx.com")).toEqual(["FAI_TITLE_EXTRACTION", "ECFX_TRACK", "DEMO_RESET"]);
    expect(await parts(demo.client, "localhost:3000")).toEqual(["FAI_TITLE_EXTRACTION", "ECFX_TRACK", "DEMO_RESET"]);
    expect(await parts(second.client, "console.ecfx.com")).toEqual([]);
    expect(await parts(second.client, "dev.ecfx.com")).toEqual([]);
    // Every role of the firm may ask (the console hides parts for all of them); no one signed out.
    const viewer = await firmOf(DEMO.viewOnly);
    expect(await parts(viewer.client, "console.ecfx.com")).toEqual(["FAI_TITLE_EXTRACTION", "ECFX_TRACK", "DEMO_RESET"]);
    expect((await api(server().url).get("/api/v1/firm/features")).status).toBe(401);
    // The same parts come with the user when the console names its host: one call per page less.
    expect((await demo.client.get("/auth/me?host=localhost:3000")).body.parts).toEqual(["FAI_TITLE_EXTRACTION", "ECFX_TRACK", "DEMO_RESET"]);
    expect((await second.client.get("/auth/me?host=dev.ecfx.com")).body.parts).toEqual([]);
    expect((await demo.client.get("/auth/me")).body.parts).toBeUndefined();
    await setEntitledFeatures(server().ctx.database, demo.firm.id, [], Date.now());
  });

  it("refuses a feature that is off with 404, and only names the features ECFX sells", async () => {
    const { firm } = await firmOf(DEMO.admin);
    await expect(setEntitledFeatures(server().ctx.database, firm.id, ["TRACK"], Date.now())).rejects.toThrow("unknown feature TRACK");
    const firmWith = (features: string[]) => ({ entitled_features: features });
    expect(() => requireFeature(firmWith([]), "FAI_TITLE_EXTRACTION")).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => requireFeature(firmWith(["FAI_TITLE_EXTRACTION"]), "FAI_TITLE_EXTRACTION")).not.toThrow();
    expect(() => requireFeature(firmWith(["FAI_TITLE_EXTRACTION", "ECFX_TRACK"]), "RETRIEVE")).toThrow(expect.objectContaining({ status: 404 }));
    expect(featureEnabled(firmWith([]), "RETRIEVE", true)).toBe(true);
  });
});
