import { X509Certificate, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign } from "node:crypto";

// The key pair a firm's SAML service provider signs requests and decrypts assertions with, and the
// self-signed certificate its metadata publishes (identity providers take the key from there, not
// from a chain of trust). Node makes keys but no certificates, so the certificate's few DER
// structures (RFC 5280) are written here; Node's X509Certificate reads each one back and checks
// its signature before it is used.

const der = (tag: number, ...parts: Buffer[]): Buffer => {
  const body = Buffer.concat(parts);
  const n = body.length;
  const length = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
};
const sequence = (...parts: Buffer[]) => der(0x30, ...parts);
const set = (...parts: Buffer[]) => der(0x31, ...parts);
/** A positive INTEGER in the fewest bytes DER allows: a leading zero only before a byte whose top bit is set. */
const integer = (bytes: Buffer) => {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && !(bytes[start + 1]! & 0x80)) start++;
  const minimal = bytes.subarray(start);
  return der(0x02, minimal[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
};
const oid = (hex: string) => der(0x06, Buffer.from(hex, "hex"));
const utf8 = (text: string) => der(0x0c, Buffer.from(text, "utf8"));
// RFC 5280: UTCTime through 2049, GeneralizedTime after.
const time = (date: Date) => {
  const digits = date.toISOString().slice(0, 19).replace(/[-:T]/g, "");
  return date.getUTCFullYear() < 2050 ? der(0x17, Buffer.from(`${digits.slice(2)}Z`, "ascii")) : der(0x18, Buffer.from(`${digits}Z`, "ascii"));
};
const bitString = (bytes: Buffer) => der(0x03, Buffer.from([0]), bytes);
const explicit = (n: number, inner: Buffer) => der(0xa0 + n, inner);

const SHA256_WITH_RSA = sequence(oid("2a864886f70d01010b"), der(0x05));
const COMMON_NAME = "550403";

export interface KeyPairWithCertificate {
  privateKeyPem: string;
  certificatePem: string;
}

/** 16 random bytes as a positive serial number (RFC 5280: at most 20 bytes, positive). */
function randomSerial(): Buffer {
  const serial = randomBytes(16);
  serial[0]! &= 0x7f;
  return serial;
}

/** A fresh RSA 2048 key and a self-signed certificate for `commonName`, valid `years` from `now`. */
export function selfSignedCertificate(commonName: string, now: Date, years = 10, serial = randomSerial()): KeyPairWithCertificate {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const name = sequence(set(sequence(oid(COMMON_NAME), utf8(commonName.slice(0, 64)))));
  const until = new Date(now);
  until.setUTCFullYear(until.getUTCFullYear() + years);
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    SHA256_WITH_RSA,
    name,
    sequence(time(now), time(until)),
    name,
    publicKey.export({ type: "spki", format: "der" }),
  );
  const certificate = sequence(tbs, SHA256_WITH_RSA, bitString(sign("sha256", tbs, privateKey)));
  const certificatePem = `-----BEGIN CERTIFICATE-----\n${certificate
    .toString("base64")
    .replace(/(.{64})/g, "$1\n")
    .trim()}\n-----END CERTIFICATE-----\n`;
  const x509 = new X509Certificate(certificatePem);
  if (!x509.verify(createPublicKey(privateKey)) || !x509.checkPrivateKey(createPrivateKey(privateKey.export({ type: "pkcs8", format: "pem" }))))
    throw new Error("self-signed certificate does not verify");
  return { privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), certificatePem };
}
