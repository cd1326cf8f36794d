// What a filed document says about itself in SharePoint, alike Online and on-premises:
//  - the storage policy's document properties go into the library's columns of the same
//    (internal) names; the credential's author_field column gets the "author" property, or the
//    notice's filer when there is none;
//  - the credential's `signature` is the firm's line for every filed document (e.g. "Filed by
//    ECFX for Smith & Jones LLP"); SharePoint has no field of that meaning, so it goes into the
//    document's filing note (Online: the library column ECFXFiling; Server: the check-in
//    comment), followed by the filing's reference, which is how a retry recognises the copy an
//    earlier attempt stored.

export interface ProfileSettings {
  author_field: string;
  signature: string;
}

/** Properties that name the author rather than a column of their own. */
const AUTHOR_PROPERTIES = ["author", "filer"];

export function profileFields(settings: ProfileSettings, properties: Record<string, string>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(properties)) if (!AUTHOR_PROPERTIES.includes(key.toLowerCase())) fields[key] = value;
  const author = properties.author ?? properties.filer;
  if (settings.author_field && author) fields[settings.author_field] = author;
  return fields;
}

/** The line that ties a document to its filing. */
export const filingReference = (idempotencyKey: string) => `ECFX filing ${idempotencyKey}`;

export function documentDescription(settings: ProfileSettings, idempotencyKey: string): string {
  return [settings.signature.trim(), filingReference(idempotencyKey)].filter(Boolean).join("\n");
}

/** Whether a document's description names this filing. */
export function isFromFiling(description: string | undefined | null, idempotencyKey: string): boolean {
  return (description ?? "").split(/\r?\n/).some((line) => line.trim() === filingReference(idempotencyKey));
}
