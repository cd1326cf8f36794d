import { describe, expect, it } from "vitest";
import { fileVineAddress, readBillingItem } from "../../../app/common/filevine";
import { fileVineHosts } from "../../../server/dms/filevine/filevine-hosts";

// Where a FileVine credential's calls may go, by its region, and how its billing item reads: the
// same reading the console checks when the credential is saved.

describe("FileVine's regions", () => {
  it("reads the region from the firm's web address, the US unless the address is Canadian", () => {
    expect(fileVineAddress("acmelaw")).toEqual({ region: "us", web: "https://acmelaw.filevineapp.com" });
    expect(fileVineAddress("https://AcmeLaw.filevineapp.com/#/projects")).toEqual({ region: "us", web: "https://acmelaw.filevineapp.com" });
    expect(fileVineAddress("acmelaw.filevineapp.ca")).toEqual({ region: "ca", web: "https://acmelaw.filevineapp.ca" });
    expect(fileVineAddress("")).toEqual({ region: "us", web: null });
    expect(fileVineAddress("acmelaw.example.com")).toBeNull();
    expect(fileVineAddress("acme law")).toBeNull();
  });

  it("lets the guard reach exactly the region's FileVine hosts and Amazon S3", () => {
    const us = fileVineHosts("", "us");
    expect(us.tokenUrl.href).toBe("https://identity.filevine.com/connect/token");
    expect(us.gatewayRoot).toBe("https://api.filevineapp.com/fv-app/v2");
    expect(us.legacyOrigin).toBe("https://api.filevine.io");
    for (const host of ["identity.filevine.com", "api.filevineapp.com", "api.filevine.io", "fv-docs.s3.us-west-2.amazonaws.com", "s3.amazonaws.com"])
      expect(us.purpose.hostAllowed(host), host).toBe(true);
    for (const host of ["acme.filevineapp.com", "filevine.com", "api.filevineapp.ca", "identity.filevine.ca", "evil.amazonaws.com", "ec2.amazonaws.com"])
      expect(us.purpose.hostAllowed(host), host).toBe(false);

    const ca = fileVineHosts("", "ca");
    expect(ca.tokenUrl.href).toBe("https://identity.filevine.ca/connect/token");
    expect(ca.gatewayRoot).toBe("https://api.filevineapp.ca/fv-app/v2");
    expect(ca.legacyOrigin).toBeNull();
    for (const host of ["identity.filevine.ca", "api.filevineapp.ca"]) expect(ca.purpose.hostAllowed(host), host).toBe(true);
    for (const host of ["identity.filevine.com", "api.filevineapp.com", "api.filevine.io"]) expect(ca.purpose.hostAllowed(host), host).toBe(false);
  });

  it("puts every host under the operator's base when it is switched, and allows only that host", () => {
    const local = fileVineHosts("http://127.0.0.1:4010/", "ca");
    expect(local.tokenUrl.href).toBe("http://127.0.0.1:4010/connect/token");
    expect(local.gatewayRoot).toBe("http://127.0.0.1:4010/fv-app/v2");
    expect(local.purpose.hostAllowed("127.0.0.1")).toBe(true);
    expect(local.purpose.hostAllowed("api.filevineapp.ca")).toBe(false);
  });
});

describe("the billing item", () => {
  it("reads description, hours and rate, hours and rate optional", () => {
    expect(readBillingItem("")).toBeNull();
    expect(readBillingItem("L120 Review court notice | 0.2 | 350")).toEqual({ description: "L120 Review court notice", quantity: 0.2, rate: 350 });
    expect(readBillingItem("Review")).toEqual({ description: "Review", quantity: 0.1, rate: 0 });
    expect(readBillingItem("Review | 0.3")).toEqual({ description: "Review", quantity: 0.3, rate: 0 });
  });

  it("calls unreadable what the credential form refuses", () => {
    for (const text of ["| x | y", "| 0.1 | 300", "Review | many", "Review | 0.1 | 250 | extra", "Review | -1"])
      expect(readBillingItem(text), text).toBe("unreadable");
  });
});
