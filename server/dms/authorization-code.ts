import type { VendorTarget } from "./vendor-target";

// What a vendor client offers when a person must approve ECFX at the vendor (OAuth 2's
// authorization-code grant, e.g. Clio): the browser goes to the vendor's consent page, the vendor
// sends it back to the console with a code, and the client exchanges the code for tokens it
// keeps in the credential's token store. See decision 057.

export interface ConnectionStatus {
  connected: boolean;
  /** Epoch milliseconds of the last completed connection, when known. */
  connectedAt: number | null;
  /** False when the credential signs in another way (an iManage password): the console offers no connection then. */
  required?: boolean;
}

export interface VendorAuthorization {
  status(): Promise<ConnectionStatus>;
  /** The vendor's consent page, sending the browser back to `redirectUri` with `state`. */
  authorizeUrl(state: string, redirectUri: string): string;
  /** Exchanges the vendor's code for tokens and keeps them sealed. */
  complete(code: string, redirectUri: string): Promise<void>;
}

export interface AuthorizingTarget extends VendorTarget {
  authorization: VendorAuthorization;
}

export const authorizationOf = (target: VendorTarget): VendorAuthorization | null =>
  "authorization" in target ? (target as AuthorizingTarget).authorization : null;
