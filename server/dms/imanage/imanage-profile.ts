import type { DmsStoreRequest } from "../dms-target";

// The profile a filed document gets: its name and extension, the credential's author, class,
// subclass and default security, custom fields (custom1…custom30) from the credential and from
// the storage policy's document properties, and the comment that carries the filing's
// idempotency key so a retry can find the copy an earlier attempt filed.

/** The profile fields a credential sets on every document. */
export interface ProfileSettings {
  author_field: string;
  document_class: string;
  document_sub_class: string;
  default_security: string;
  custom_properties: Record<string, string>;
}

const CUSTOM_FIELD = /^custom([1-9]|[12][0-9]|30)$/;

/** Whether a property names one of iManage's custom profile fields (custom1…custom30). */
export const isCustomField = (name: string) => CUSTOM_FIELD.test(name);

/** The comment a filing's document carries: what findExisting searches for. */
export const filingComment = (idempotencyKey: string) => `ECFX filing ${idempotencyKey}`;

/**
 * The document profile: the property "author" wins over the credential's author field; custom
 * fields of the policy's properties win over the credential's. Empty values are left out, so
 * iManage applies its own defaults (the signed-in user as author, the library's default class).
 */
export function documentProfile(
  settings: ProfileSettings,
  request: DmsStoreRequest,
  name: string,
  extension: string,
  idempotencyKey: string,
): Record<string, string> {
  const customs = { ...settings.custom_properties, ...request.properties };
  const profile: Record<string, string> = {
    name,
    extension,
    comment: filingComment(idempotencyKey),
    author: (request.properties.author ?? settings.author_field ?? "").trim(),
    class: (settings.document_class ?? "").trim(),
    subclass: (settings.document_sub_class ?? "").trim(),
    default_security: (settings.default_security ?? "").trim(),
  };
  for (const [field, value] of Object.entries(customs)) if (isCustomField(field)) profile[field] = String(value).trim();
  return Object.fromEntries(Object.entries(profile).filter(([, value]) => value !== ""));
}
