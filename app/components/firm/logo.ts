// The logo rules of the spec (§5: PNG, under 1 MB), as the API applies them.

export const LOGO_INTENT = "logo";
export const MAX_LOGO_BYTES = 1024 * 1024;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Whether the bytes start with the PNG signature. */
export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= PNG_SIGNATURE.length && PNG_SIGNATURE.every((b, i) => bytes[i] === b);
}

/** The logo's address; the change time busts the five-minute cache after an upload. */
export const logoSrc = (firm: { id: number; updated_at: number }) => `/firm-logo.png?firm=${firm.id}&v=${firm.updated_at}`;
