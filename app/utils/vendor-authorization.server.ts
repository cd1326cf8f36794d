import { REGISTRY } from "../common/resources";
import type { ResourceDef } from "../common/resources/types";

/** The credential type whose records connect to `system` (decision 057). */
export const authorizingDef = (system: string) => Object.values(REGISTRY as Record<string, ResourceDef>).find((def) => def.authorization?.system === system);

/** Systems whose name is not their key with a capital first letter. */
const NAMES: Record<string, string> = { "imanage-cloud": "iManage", "imanage-on-prem": "iManage", netdocuments: "NetDocuments" };

/** The system's name for toasts: "clio" → "Clio", "imanage-cloud" → "iManage". */
export const systemName = (system: string) => NAMES[system] ?? system.charAt(0).toUpperCase() + system.slice(1);
