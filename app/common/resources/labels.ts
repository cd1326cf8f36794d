import { REGISTRY } from "./index";
import { type ResourceDef, fieldLabelKey, resourceTitleKey } from "./types";

// Entity names in the plural come from one place: the entity's title in the catalogue. A
// permission resource type that no single entity stands for has its own entry.

/** The catalogue key naming a permission resource type (a role's "case", "storage_policy") in the plural. */
export function resourceTypeLabelKey(type: string): string {
  const owner = soleOwner(type);
  return owner ? resourceTitleKey(owner.key) : `common:resourceTypes.${type}`;
}

/**
 * The catalogue keys naming a field of a permission resource type, first found wins: the label
 * of the entity that stands for the type, then the role page's own name for the field.
 */
export function fieldPermissionLabelKeys(type: string, field: string): string[] {
  const owner = soleOwner(type);
  return [...(owner ? [fieldLabelKey(owner.key, field)] : []), `roles:fields.${field}`];
}

function soleOwner(type: string): ResourceDef | undefined {
  const owners = Object.values(REGISTRY as Record<string, ResourceDef>).filter((def) => def.resource === type && !def.borrowsPermission);
  return owners.length === 1 ? owners[0] : undefined;
}
