import type { OutboundPurpose } from "../outbound/guard";
import { courtIdFromHost } from "../jurisdictions/federal-courts";

/**
 * The hosts court documents may be fetched from: any host of the federal judiciary
 * (`*.uscourts.gov`, PACER's sign-in hosts `pacer.login.uscourts.gov` and `qa-login.uscourts.gov`
 * among them) and the hosts the court registry knows, such as the appellate courts'
 * `*.fedcourts.us`, their ACMS document gateways (`caN-showdoc.azurewebsites.us`) and the Supreme
 * Court's `supremecourt.gov` (`www.`, where its opinions and docket documents are published).
 * The guard itself allows https only.
 */
export const COURT_HOSTS: OutboundPurpose = {
  name: "court",
  hostAllowed: (host) => host.endsWith(".uscourts.gov") || courtIdFromHost(host) !== undefined,
};
