import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import product from "../../package.json" with { type: "json" };
import { COURT_HOSTS } from "../courts/court-hosts";
import { OutboundGuard, OutboundRefusedError } from "./guard";

describe("outbound guard", () => {
  const guard = new OutboundGuard({ allowedOrigins: ["http://127.0.0.1:4010"], allowedRanges: ["10.20.0.0/16", "fd12::7"] });
  afterAll(() => guard.close());

  it.each([
    ["127.0.0.1", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["10.1.2.3", "private"],
    ["192.168.1.1", "private"],
    ["172.16.0.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["fe80::1", "linkLocal"],
    ["fd00::1", "uniqueLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
  ])("refuses %s (%s)", (address, range) => {
    expect(guard.addressRefusal(address)).toBe(range);
  });

  it("allows public addresses and the ranges the operator named", () => {
    for (const address of ["8.8.8.8", "2607:f8b0:4004:800::200e", "10.20.3.4", "fd12::7"]) expect(guard.addressRefusal(address)).toBeNull();
    expect(guard.addressRefusal("10.21.0.1")).toBe("private");
  });

  it("takes court hosts over https only, and the operator's origin as it is", () => {
    const check = (url: string) => () => guard.check(new URL(url), COURT_HOSTS);
    expect(check("https://ecf.almd.uscourts.gov/doc1/1")).not.toThrow();
    expect(check("https://ca9-showdoc.azurewebsites.us/NDA/x")).not.toThrow();
    expect(check("https://em4346.ca9.fedcourts.us/x")).not.toThrow();
    expect(check("http://127.0.0.1:4010/doc1/1")).not.toThrow();
    expect(check("http://127.0.0.1:4011/doc1/1")).toThrow(OutboundRefusedError);
    expect(check("http://ecf.almd.uscourts.gov/doc1/1")).toThrow(/not an https address/);
    expect(check("https://ecf.almd.uscourts.gov.attacker.test/doc1/1")).toThrow(/not a court host/);
    expect(check("https://evil-showdoc.azurewebsites.us/NDA/x")).toThrow(/not a court host/);
    expect(check("https://www.supremecourt.gov/opinions/25pdf/25-83_3e04.pdf")).not.toThrow();
    expect(check("http://www.supremecourt.gov/opinions/25pdf/25-83_3e04.pdf")).toThrow(/not an https address/);
    expect(check("https://www.supremecourt.gov.attacker.test/opinions/x.pdf")).toThrow(/not a court host/);
    expect(check("https://notsupremecourt.gov/opinions/x.pdf")).toThrow(/not a court host/);
    expect(check("https://[::ffff:a9fe:a9fe]/doc1/1")).toThrow(/169\.254\.169\.254|linkLocal/);
  });

  it("names the product and its version to the receiver", async () => {
    const seen: (string | undefined)[] = [];
    const receiver = http.createServer((request, response) => {
      seen.push(request.headers["user-agent"]);
      response.end("ok");
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const local = new OutboundGuard({ allowedOrigins: [origin] });
    try {
      const anyHost = { name: "test", hostAllowed: () => true };
      await (await local.fetch(new URL(`${origin}/hook`), anyHost, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).text();
      expect(seen).toEqual([`ECFX/${product.version}`]);
    } finally {
      await local.close();
      receiver.close();
    }
  });

  it("keeps one connection for sign-ins that need it, and vets its address and origin as fetch does", async () => {
    const sockets = new Set<unknown>();
    const receiver = http.createServer((request, response) => {
      sockets.add(request.socket);
      response.end("ok");
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const local = new OutboundGuard({ allowedOrigins: [origin], resolve: async () => [{ address: "10.1.2.3", family: 4 }] });
    const anyHost = { name: "test", hostAllowed: () => true };
    const connection = local.connection(new URL(origin), anyHost);
    try {
      for (const path of ["/one", "/two"]) await (await connection.fetch(new URL(`${origin}${path}`))).text();
      expect(sockets.size).toBe(1);
      await expect(connection.fetch(new URL("https://elsewhere.example.com/"))).rejects.toBeInstanceOf(OutboundRefusedError);
      const inside = local.connection(new URL("https://sp.contoso.example/"), anyHost);
      await expect(inside.fetch(new URL("https://sp.contoso.example/_api/web"))).rejects.toThrow(/10\.1\.2\.3/);
      await inside.close();
      expect(() => local.connection(new URL("http://sp.contoso.example/"), anyHost)).toThrow(OutboundRefusedError);
    } finally {
      await connection.close();
      await local.close();
      receiver.close();
    }
  });
});
