import { DOMParser } from "@xmldom/xmldom";

// What ECFX needs of an identity provider's SAML metadata: its entity id, where it takes sign-in
// and logout requests, and the certificates it signs with (several during a key rollover).

const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
const DS = "http://www.w3.org/2000/09/xmldsig#";
const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";
const POST = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";

export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  sloUrl: string;
  certificates: string[];
}

export class IdpMetadataError extends Error {}

/** A base64 certificate body (as metadata carries it) as PEM. */
export function certificatePem(text: string): string {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+=*$/.test(body)) throw new IdpMetadataError("certificate");
  return `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, "$1\n").trim()}\n-----END CERTIFICATE-----\n`;
}

export function parseIdpMetadata(xml: string): IdpMetadata {
  const errors: string[] = [];
  const doc = new DOMParser({
    errorHandler: { error: (msg: string) => void errors.push(msg), fatalError: (msg: string) => void errors.push(msg) },
  }).parseFromString(xml, "text/xml");
  if (errors.length > 0 || !doc?.documentElement) throw new IdpMetadataError("xml");
  const entity = [doc.documentElement, ...Array.from(doc.getElementsByTagNameNS(MD, "EntityDescriptor"))].find(
    (e) => e.localName === "EntityDescriptor" && e.namespaceURI === MD && e.getElementsByTagNameNS(MD, "IDPSSODescriptor").length > 0,
  );
  const idp = entity?.getElementsByTagNameNS(MD, "IDPSSODescriptor")[0];
  if (!entity || !idp) throw new IdpMetadataError("noIdp");
  const location = (tag: string) => {
    const services = Array.from(idp.getElementsByTagNameNS(MD, tag));
    const byBinding = (binding: string) => services.find((s) => s.getAttribute("Binding") === binding)?.getAttribute("Location") ?? "";
    return byBinding(REDIRECT) || byBinding(POST);
  };
  const certificates = Array.from(idp.getElementsByTagNameNS(MD, "KeyDescriptor"))
    .filter((k) => !k.getAttribute("use") || k.getAttribute("use") === "signing")
    .flatMap((k) => Array.from(k.getElementsByTagNameNS(DS, "X509Certificate")).map((c) => certificatePem(c.textContent ?? "")));
  const metadata = {
    entityId: entity.getAttribute("entityID") ?? "",
    ssoUrl: location("SingleSignOnService"),
    sloUrl: location("SingleLogoutService"),
    certificates: [...new Set(certificates)],
  };
  if (!metadata.entityId || !metadata.ssoUrl || metadata.certificates.length === 0) throw new IdpMetadataError("incomplete");
  return metadata;
}
