import { REGISTRY } from "../common/resources";
import type { ResourceDef } from "../common/resources/types";

/** The credential type whose records connect to `system` (decision 057). */
export const authorizingDef = (system: string) => Object.values(REGISTRY as Record<string, ResourceDef>).find((def) => def.authorization?.system === system);

/** The system's name for toasts: "clio" → "Clio". */
export const systemName = (system: string) => system.charAt(0).toUpperCase() + system.slice(1);
