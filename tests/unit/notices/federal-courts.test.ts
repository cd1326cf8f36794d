import { describe, expect, it } from "vitest";
import { courtIdFromHost, FEDERAL_COURTS, findCourt, findCourtByName } from "../../../server/jurisdictions/federal-courts";

describe("federal court list", () => {
  const byLevel = (level: string) => FEDERAL_COURTS.filter((c) => c.level === level);

  it("has every district court (94), a bankruptcy court for each district, 13 courts of appeals and the national courts", () => {
    expect(byLevel("DISTRICT")).toHaveLength(94);
    expect(byLevel("BANKRUPTCY")).toHaveLength(94);
    expect(
      byLevel("APPEALS")
        .map((c) => c.id)
        .sort(),
    ).toEqual(["ca1", "ca2", "ca3", "ca4", "ca5", "ca6", "ca7", "ca8", "ca9", "ca10", "ca11", "cadc", "cafc"].sort());
    expect(
      byLevel("NONE")
        .map((c) => c.id)
        .sort(),
    ).toEqual(["cit", "cofc", "jpml", "scotus"]);
  });

  it("has unique ids and consistent shapes", () => {
    const ids = FEDERAL_COURTS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of FEDERAL_COURTS) {
      expect(c.id).toMatch(/^[a-z0-9]+$/);
      expect(c.country).toBe("US");
      expect(c.system).toBe("federal");
      expect(c.name.length).toBeGreaterThan(10);
      if (c.level === "DISTRICT" || c.level === "BANKRUPTCY") {
        expect(c.state).toMatch(/^[A-Z]{2}$/);
        expect(c.appeals_court && findCourt(c.appeals_court)?.level).toBe("APPEALS");
      } else {
        expect(c.state).toBeNull();
      }
    }
  });

  it("names and finds courts by id", () => {
    expect(findCourt("almd")).toMatchObject({
      name: "U.S. District Court for the Middle District of Alabama",
      level: "DISTRICT",
      state: "AL",
      appeals_court: "ca11",
    });
    expect(findCourt("NYSB")).toMatchObject({ name: "U.S. Bankruptcy Court for the Southern District of New York", level: "BANKRUPTCY", state: "NY" });
    expect(findCourt("dcd")?.name).toBe("U.S. District Court for the District of Columbia");
    expect(findCourt("dcb")?.name).toBe("U.S. Bankruptcy Court for the District of Columbia");
    expect(findCourt("deb")?.state).toBe("DE");
    expect(findCourt("prd")?.state).toBe("PR");
    expect(findCourt("gud")?.state).toBe("GU");
    expect(findCourt("nmid")).toMatchObject({ state: "MP", name: "District Court for the Northern Mariana Islands" });
    expect(findCourt("vid")?.name).toBe("District Court of the Virgin Islands");
    expect(findCourt("gub")?.level).toBe("BANKRUPTCY");
    expect(findCourt("ca9")?.name).toBe("U.S. Court of Appeals for the Ninth Circuit");
    expect(findCourt("cadc")?.name).toBe("U.S. Court of Appeals for the District of Columbia Circuit");
    expect(findCourt("cafc")?.name).toBe("U.S. Court of Appeals for the Federal Circuit");
    expect(findCourt("jpml")?.level).toBe("NONE");
    expect(findCourt("scotus")).toMatchObject({ name: "Supreme Court of the United States", system: "federal", state: null });
    expect(findCourt("nope")).toBeUndefined();
    expect(findCourt(undefined)).toBeUndefined();
  });

  it("maps CM/ECF, ACMS and mail hosts to court ids", () => {
    expect(courtIdFromHost("ecf.almd.uscourts.gov")).toBe("almd");
    expect(courtIdFromHost("ECF.CA9.USCOURTS.GOV")).toBe("ca9");
    expect(courtIdFromHost("https://ecf.nysd.uscourts.gov/doc1/127031741309?caseid=1")).toBe("nysd");
    expect(courtIdFromHost("ecf.cadc.uscourts.gov:443")).toBe("cadc");
    expect(courtIdFromHost("ca9-showdoc.azurewebsites.us")).toBe("ca9");
    expect(courtIdFromHost("https://ca2-showdoc.azurewebsites.us/NDA/abc")).toBe("ca2");
    expect(courtIdFromHost("ACMS@ca9.fedcourts.us")).toBe("ca9");
    expect(courtIdFromHost("bounces@em4346.ca9.fedcourts.us")).toBe("ca9");
    expect(courtIdFromHost("efile_information@alsd.uscourts.gov")).toBe("alsd");
    expect(courtIdFromHost("DCECF_LiveDB@txs.uscourts.gov")).toBe("txsd");
    expect(courtIdFromHost("mailto:ecf@deb.uscourts.gov")).toBe("deb");
    expect(courtIdFromHost("icmecf101.gtwy.uscourts.gov")).toBeUndefined();
    expect(courtIdFromHost("ao.uscourts.gov")).toBeUndefined();
    expect(courtIdFromHost("ecf.example.test")).toBeUndefined();
    expect(courtIdFromHost("https://www.supremecourt.gov/opinions/25pdf/25-83_3e04.pdf")).toBe("scotus");
    expect(courtIdFromHost("no-reply@sc-us.gov")).toBe("scotus");
    expect(courtIdFromHost("bounce@mail.sc-us.gov")).toBe("scotus");
    expect(courtIdFromHost("www.supremecourt.gov.example.test")).toBeUndefined();
    expect(courtIdFromHost("")).toBeUndefined();
    expect(courtIdFromHost(null)).toBeUndefined();
  });

  it("finds a court from a notice heading", () => {
    expect(findCourtByName("U.S. District Court\nSOUTHERN DISTRICT OF ALABAMA\nNotice of Electronic Filing")?.id).toBe("alsd");
    expect(findCourtByName("U.S. Bankruptcy Court District of New Jersey")?.id).toBe("njb");
    expect(findCourtByName("U. S. District Court Western District of Arkansas")?.id).toBe("arwd");
    expect(findCourtByName("United States Court of Appeals for the Ninth Circuit")?.id).toBe("ca9");
    expect(findCourtByName("Court of Appeals, 2nd Circuit")?.id).toBe("ca2");
    expect(findCourtByName("United States Court of Appeals for the District of Columbia Circuit")?.id).toBe("cadc");
    expect(findCourtByName("U.S. District Court District of Columbia")?.id).toBe("dcd");
    expect(findCourtByName("Northern District of West Virginia District Court")?.id).toBe("wvnd");
    expect(findCourtByName("nothing to see")).toBeUndefined();
  });
});
