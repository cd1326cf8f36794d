import { REGISTRY } from "./index";
import { type ResourceDef, resourceTitleKey } from "./types";

// Entity names in the plural come from one place: the entity's title in the catalogue. A
// permission resource type that no single entity stands for has its own entry.

/** The catalogue key naming a permission resource type (a role's "case", "storage_policy") in the plural. */
export function resourceTypeLabelKey(type: string): string {
  const owners = Object.values(REGISTRY as Record<string, ResourceDef>).filter((def) => def.resource === type);
  return owners.length === 1 ? resourceTitleKey(owners[0]!.key) : `common:resourceTypes.${type}`;
}
