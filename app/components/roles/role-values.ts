import type { AccessLevel } from "../../common/access";
import type { PickerData } from "../fields/reference-sources";

// A role as the role page shows and posts it: plain data, so the page renders it on either side.

export interface MatrixRow {
  /** Resource type of the role message: "case", "clio_credential". */
  type: string;
  access: AccessLevel;
  fields: { name: string; access: AccessLevel }[];
}

/** The form's input names, one radio group each: `access.<type>` and `field.<type>.<field>`. */
export const accessInput = (type: string) => `access.${type}`;
export const fieldInput = (type: string, field: string) => `field.${type}.${field}`;
export const USERS_INPUT = "userIds";
/** The area's level when the page was drawn: a field left at it moves with the area. */
export const areaWasInput = (type: string) => `was.${type}`;

export interface RoleValues {
  name: string;
  userIds: string[];
  matrix: MatrixRow[];
}

/** The steps of a new role, as every "new" page is a stepper: who (name and users), then what (rights). */
export const ROLE_STEPS = ["roleStep", "rightsStep"] as const;

export interface RoleEditorData {
  id: string | null;
  /** A new role's step (an index of ROLE_STEPS); a stored role is one page. */
  step: number;
  values: RoleValues;
  /** The system-defined administrator role: shown, never changed here. */
  fixed: boolean;
  canWrite: boolean;
  users: PickerData;
  /** Names of the role's users, for the page that cannot change them. */
  userNames: Record<string, string>;
}
