import type { FirmBranding } from "../common/firm-schema";
import { appCookie } from "./cookies.server";
import { FIRM_STORE_VERSION, readVersioned, writeVersioned } from "./versioned-store";

// What the browser keeps of the signed-in user's firm (spec §4: firm store version 2 with its
// primary colour, sign-on type, entitled features and version reference), so the pages shown
// before anyone signs in — sign-in, forgotten password — wear the firm's colour on a host name
// that names no firm. A store of another version is discarded; it is written again only when
// the firm's version reference moves.

export interface FirmStore {
  primaryColor: string;
  signonType: string;
  entitledFeatures: string[];
  versionRef: number;
}

const EMPTY: FirmStore = { primaryColor: "", signonType: "", entitledFeatures: [], versionRef: 0 };
const cookie = appCookie<unknown>("ecfx_firm", { maxAge: 365 * 24 * 3600 });

export async function readFirmStore(request: Request): Promise<FirmStore> {
  const store = readVersioned(await cookie.read(request), FIRM_STORE_VERSION, EMPTY);
  return { ...store, entitledFeatures: store.entitledFeatures.filter((f) => typeof f === "string") };
}

/** The Set-Cookie that brings the store up to the firm's version, or null when it is current. */
export async function firmStoreUpdate(request: Request, stored: FirmStore, branding: FirmBranding): Promise<string | null> {
  if (stored.versionRef === branding.updated_at && stored.primaryColor === branding.primary_color) return null;
  const next: FirmStore = {
    primaryColor: branding.primary_color,
    signonType: branding.signon_type,
    entitledFeatures: branding.entitled_features,
    versionRef: branding.updated_at,
  };
  return cookie.write(request, writeVersioned(next, FIRM_STORE_VERSION));
}

/** The colours to wear when the host names no firm: the last signed-in firm's, if the browser kept them. */
export function storedColours(store: FirmStore): { primary_color: string; secondary_color?: string } | null {
  return store.primaryColor ? { primary_color: store.primaryColor } : null;
}
