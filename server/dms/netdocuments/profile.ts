import { DmsTargetError } from "../dms-target";

// A storage policy's document properties as NetDocuments profile attributes. NetDocuments
// numbers a repository's custom attributes (client, matter, document type, author, …), so a
// property is named by its attribute number ("1001": "Motion"); the property "author" goes to
// the attribute the credential's author_field names.

export interface ProfileAttribute {
  id: number;
  value: string;
}

const NUMBER = /^\d{1,9}$/;

/** The properties that name a matter workspace (client and matter), not profile attributes. */
export const WORKSPACE_PROPERTIES = ["client", "matter"] as const;

export function profileAttributes(kind: string, properties: Record<string, string>, authorField: string, workspaces = false): ProfileAttribute[] {
  const attributes = new Map<number, string>();
  for (const [key, raw] of Object.entries(properties)) {
    // Filing into workspaces, client and matter name the workspace; its own attributes profile the document.
    if (workspaces && (WORKSPACE_PROPERTIES as readonly string[]).includes(key.trim().toLowerCase())) continue;
    const value = raw.trim();
    if (value === "") continue;
    const name = key.trim();
    if (NUMBER.test(name)) {
      attributes.set(Number(name), value);
    } else if (name.toLowerCase() === "author") {
      if (!NUMBER.test(authorField.trim())) {
        throw new DmsTargetError(kind, `The NetDocuments author field "${authorField}" is not an attribute number, so the author cannot be set`, false);
      }
      attributes.set(Number(authorField.trim()), value);
    } else {
      throw new DmsTargetError(
        kind,
        `The document property "${name}" names no NetDocuments profile attribute: name it by the attribute's number, or "author"`,
        false,
      );
    }
  }
  return [...attributes].map(([id, value]) => ({ id, value }));
}
