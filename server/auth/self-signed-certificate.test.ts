import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { selfSignedCertificate } from "./self-signed-certificate";

describe("the service provider's self-signed certificate", () => {
  const now = new Date("2026-11-29T06:00:00Z");

  // One random serial in 256 starts with a zero byte followed by a byte under 0x80: written as it
  // was drawn, that INTEGER is not DER and OpenSSL refused the certificate ("illegal padding"),
  // so a firm's first read of its single sign-on settings failed.
  it.each([
    ["a zero byte, then one under 0x80", "0010a1b2c3d4e5f60718293a4b5c6d7e", "10a1b2c3d4e5f60718293a4b5c6d7e"],
    ["two zero bytes", "00001a2b3c4d5e6f708192a3b4c5d6e7", "1a2b3c4d5e6f708192a3b4c5d6e7"],
    ["a zero byte, then one of 0x80 or more", "0090a1b2c3d4e5f60718293a4b5c6d7e", "0090a1b2c3d4e5f60718293a4b5c6d7e"],
    ["no zero byte", "7f10a1b2c3d4e5f60718293a4b5c6d7e", "7f10a1b2c3d4e5f60718293a4b5c6d7e"],
  ])("is valid DER whatever the serial: %s", (_, drawn, written) => {
    const pair = selfSignedCertificate("https://firm.example/auth/saml/metadata", now, 10, Buffer.from(drawn, "hex"));
    const certificate = new X509Certificate(pair.certificatePem);
    expect(certificate.serialNumber.toLowerCase().replace(/^0+/, "")).toBe(written.replace(/^0+/, ""));
    expect(certificate.subject).toBe("CN=https://firm.example/auth/saml/metadata");
    expect(certificate.validFrom).toBe("Nov 29 06:00:00 2026 GMT");
  });
});
