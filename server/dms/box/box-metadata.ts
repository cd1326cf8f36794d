import type { BoxItem } from "./box-folders";

// What a filed document carries in Box: an instance of Box's free-form "global properties"
// metadata template, holding the storage policy's document properties and two keys of the
// product's own (the filing's idempotency key and the SHA-256 of the bytes), which is how a retry
// recognises the copy its earlier attempt stored.

export const METADATA_SCOPE = "global";
export const METADATA_TEMPLATE = "properties";
export const FILING_KEY = "ecfxFilingKey";
export const CONTENT_HASH_KEY = "ecfxContentSha256";
/** The folder-items field that brings the instance along with each file. */
export const METADATA_FIELD = `metadata.${METADATA_SCOPE}.${METADATA_TEMPLATE}`;

/** A property name as a metadata key: Box reserves keys starting with "$"; letters, digits and "_" pass everywhere. */
export function metadataKey(name: string): string {
  const key = name
    .trim()
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return key === "" ? "property" : key;
}

/** The metadata instance for one filing; the product's own keys win over a property of the same name. */
export function filingMetadata(properties: Record<string, string>, idempotencyKey: string, contentHash: string): Record<string, string> {
  const instance: Record<string, string> = {};
  for (const [name, value] of Object.entries(properties)) instance[metadataKey(name)] = value;
  instance[FILING_KEY] = idempotencyKey;
  instance[CONTENT_HASH_KEY] = contentHash;
  return instance;
}

/** Whether a listed item is the copy of this filing (same idempotency key, same content). */
export function isFilingCopy(item: BoxItem, idempotencyKey: string, contentHash: string): boolean {
  const instance = item.metadata?.[METADATA_SCOPE]?.[METADATA_TEMPLATE];
  return item.type === "file" && instance?.[FILING_KEY] === idempotencyKey && instance?.[CONTENT_HASH_KEY] === contentHash;
}

/** The properties as they were set, without Box's "$" fields and the product's own keys. */
export function documentProperties(instance: Record<string, unknown>): Record<string, string> {
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(instance)) {
    if (!key.startsWith("$") && key !== FILING_KEY && key !== CONTENT_HASH_KEY && typeof value === "string") properties[key] = value;
  }
  return properties;
}
