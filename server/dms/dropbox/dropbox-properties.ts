import type { file_properties } from "dropbox";
import type { DropboxClient } from "./dropbox-client";
import { DropboxRefusal } from "./dropbox-errors";
import { type FileMetadata, template, templateAdded, templateIds, unread } from "./dropbox-answers";

// Each filed document carries one property group of the user template "ECFX filing": the filing's
// idempotency key and the SHA-256 of its bytes (how a retry recognises its own copy), and the
// storage policy's document properties, one field each. The group is part of the upload's
// commit, so a document never exists without it. Fields a policy names that the template lacks
// are added to it first (Dropbox lets templates grow, never shrink).

export const TEMPLATE_NAME = "ECFX filing";
export const KEY_FIELD = "ecfx_idempotency_key";
export const SHA256_FIELD = "ecfx_sha256";

/** Dropbox's limits on templates and property values. */
const MAX_FIELDS = 32;
const MAX_FIELD_NAME = 256;
const MAX_VALUE = 1024;

const refused = (message: string) => new DropboxRefusal(400, "", message, false);

/** The template's fields for a filing: the two of its own first, then the policy's properties. */
export function filingFields(idempotencyKey: string, sha256: string, properties: Record<string, string>): file_properties.PropertyField[] {
  const fields = [
    { name: KEY_FIELD, value: idempotencyKey },
    { name: SHA256_FIELD, value: sha256 },
  ];
  for (const [rawName, value] of Object.entries(properties)) {
    const name = rawName.trim();
    if (!name || name === KEY_FIELD || name === SHA256_FIELD) continue;
    if (name.length > MAX_FIELD_NAME) throw refused(`Dropbox property names are at most ${MAX_FIELD_NAME} characters: ${name.slice(0, 40)}…`);
    if (value.length > MAX_VALUE) throw refused(`Dropbox keeps at most ${MAX_VALUE} characters per property; ${name} has ${value.length}`);
    fields.push({ name, value });
  }
  if (fields.length > MAX_FIELDS) throw refused(`Dropbox keeps at most ${MAX_FIELDS - 2} document properties; the storage policy names ${fields.length - 2}`);
  return fields;
}

/** The fields of the ECFX group among a file's property groups. */
export function groupValues(groups: FileMetadata["property_groups"], templateId: string): Record<string, string> {
  const group = groups?.find((candidate) => candidate.template_id === templateId);
  return Object.fromEntries((group?.fields ?? []).map((field) => [field.name, field.value]));
}

/** The template of the connected user named TEMPLATE_NAME, or null when there is none yet. */
export async function findTemplate(client: DropboxClient): Promise<{ id: string; fields: string[] } | null> {
  const { template_ids: ids } = await client.call("listing property templates", templateIds, (dropbox) => dropbox.filePropertiesTemplatesListForUser());
  for (const id of ids) {
    const found = await client.call("reading a property template", template, (dropbox) => dropbox.filePropertiesTemplatesGetForUser({ template_id: id }));
    if (found.name === TEMPLATE_NAME) return { id, fields: found.fields.map((field) => field.name) };
  }
  return null;
}

const fieldTemplate = (name: string): file_properties.PropertyFieldTemplate => ({
  name,
  description: name === KEY_FIELD ? "ECFX filing this document belongs to" : name === SHA256_FIELD ? "SHA-256 of the filed bytes" : `Document property ${name}`,
  type: { ".tag": "string" },
});

/** The template with every field `names` needs: found, created or grown. */
export async function ensureTemplate(client: DropboxClient, names: string[]): Promise<string> {
  const existing = await findTemplate(client);
  if (!existing) {
    const created = await client.call("creating the property template", templateAdded, (dropbox) =>
      dropbox.filePropertiesTemplatesAddForUser({
        name: TEMPLATE_NAME,
        description: "Court documents filed by ECFX",
        fields: names.map(fieldTemplate),
      }),
    );
    return created.template_id;
  }
  const missing = names.filter((name) => !existing.fields.includes(name));
  if (missing.length > 0) {
    if (existing.fields.length + missing.length > MAX_FIELDS)
      throw refused(`The Dropbox template "${TEMPLATE_NAME}" would need more than ${MAX_FIELDS} fields`);
    await client.call("adding fields to the property template", unread, (dropbox) =>
      dropbox.filePropertiesTemplatesUpdateForUser({ template_id: existing.id, add_fields: missing.map(fieldTemplate) }),
    );
  }
  return existing.id;
}
