import { domainToUnicode } from "node:url";
import unhomoglyph from "unhomoglyph";
import { isAddressLiteral } from "../../app/common/firm-schema";
import { message } from "../lib/messages";

// Which host names a firm may answer to (decision 090). A host name leads to one firm only, so a
// firm cannot put its branding on the sign-in page of an address that reaches this installation
// for someone else: not an IP address (every address of the machine reaches every firm), not a
// name of the machine itself (localhost and the names under it), not another firm's name, and not
// a name that looks like one. Names arrive normalised by UTS 46 (firm-schema.ts).

/**
 * What a host name looks like: its UTS 39 skeleton (Unicode's confusable mapping, applied to the
 * name as a person reads it), so that "lоcalhost" with a Cyrillic о and "localhost" compare equal.
 */
export function hostSkeleton(host: string): string {
  return unhomoglyph(domainToUnicode(host).normalize("NFD")).normalize("NFD").toLowerCase();
}

/** localhost and every name under it reach the machine itself (RFC 6761). */
const namesThisMachine = (host: string) => host === "localhost" || host.endsWith(".localhost");

export interface HostNameRefusal {
  status: 400 | 409;
  message: string;
}

/**
 * Why the firm may not answer to `hosts`, or undefined when it may. `held`: the names it answers
 * to already (the installation may have given it a name under localhost, which it keeps);
 * `others`: every name other firms answer to, implicitly included.
 */
export function hostNameRefusal(hosts: readonly string[], held: readonly string[], others: readonly string[]): HostNameRefusal | undefined {
  const taken = hosts.filter((host) => others.includes(host));
  if (taken.length > 0) return { status: 409, message: message("errors:hostNameTaken", { hosts: taken.join(", ") }) };
  const othersBySkeleton = new Map(others.map((other) => [hostSkeleton(other), other]));
  for (const host of hosts) {
    if (isAddressLiteral(host)) return { status: 400, message: message("errors:hostNameAddress", { host }) };
    const skeleton = hostSkeleton(host);
    const lookAlike = othersBySkeleton.get(skeleton);
    if (lookAlike) return { status: 409, message: message("errors:hostNameLookAlike", { host: domainToUnicode(host), other: lookAlike }) };
    if (namesThisMachine(skeleton) && !held.includes(host))
      return { status: 400, message: message("errors:hostNameThisMachine", { host: domainToUnicode(host) }) };
  }
  return undefined;
}
