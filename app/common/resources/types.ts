import type { z } from "zod";
import type { AccessKey } from "../access";

// The isomorphic half of the entity registry: what the console and the API both need to know
// about an entity. No server imports here.

export type FieldKind =
  | "text"
  | "textarea"
  | "email"
  | "emails"
  | "number"
  | "boolean"
  | "date"
  | "select"
  | "reference"
  | "references"
  /** A map of names to values, typed as "name=value" lines. */
  | "properties"
  /** Several of the fixed `options`, kept as a list (a webhook's events). */
  | "choices";

export interface FieldDef {
  /** API and column name, also the field-permission name (`<name>_access`). */
  name: string;
  kind: FieldKind;
  required?: boolean;
  /** For select fields: the stored values; labels come from `resources.<key>.options.<name>.<value>`. */
  options?: readonly string[];
  /** For select fields: an option drawn first and chosen for a new record (the firm's own time zone). */
  leadingOption?: "firmTimeZone";
  /** For reference fields: the registry key of the entity referred to. */
  reference?: string;
  /** Computed by the server: never written by a client. */
  computed?: boolean;
  /** Catalogue key of the hint under the input, where the kind's own hint would mislead. */
  hintKey?: string;
  /** The API sorts by it; by default what its kind allows (see server/resources/columns.ts). */
  sortable?: boolean;
  /** The API filters by it; by default what its kind allows. */
  filterable?: boolean;
  /** How a filter value matches: the whole value, or a part of it. By default exact for references and choices. */
  match?: "exact" | "contains";
  /** Served for the console's own screens and exports; the generic record page leaves it out. */
  /** A secret (a credential's password or key): never shown back, masked in audit entries. */
  secret?: boolean;
  internal?: boolean;
  /** A number of cents, shown as an amount of money (decision 111). */
  money?: boolean;
}

export interface ColumnDef {
  field: string;
  sortable?: boolean;
  /** How the column can be filtered from the table. */
  filter?: "text" | "select" | "dateRange" | "reference";
  width?: number;
}

export interface QuickFilters {
  /** Filter applied by the Not Mapped quick filter; absent when the entity has no such notion. */
  notMapped?: { field: string; labelKey: string };
}

export interface WizardStep {
  key: string;
  fields: string[];
  /** How the step asks: its fields one by one, or an existing matter or a new one with its client. */
  kind?: "fields" | "matterChoice";
}

/** Where the drawer shows an entity's list page; the icon is named, the drawer draws it. */
export type DrawerGroup = "main" | "data" | "notices" | "firm" | "developer";
export type DrawerIcon =
  | "scale"
  | "briefcase"
  | "buildingBank"
  | "userStar"
  | "world"
  | "building"
  | "gavel"
  | "userOff"
  | "users"
  | "sitemap"
  | "mapPin"
  | "usersGroup"
  | "alphabet"
  | "inbox"
  | "mail"
  | "dashboard"
  | "userCircle"
  | "code"
  | "adjustments"
  | "template"
  | "bellRinging"
  | "wand"
  | "folders"
  | "database"
  | "wall"
  | "buildingCommunity"
  | "hierarchy"
  | "history"
  | "handStop"
  | "notes"
  | "gauge"
  | "refresh"
  | "shieldLock"
  | "webhook"
  | "book"
  | "receipt";

export type PageEntry = {
  /** Catalogue key of the page title; by default the entity's title (`resources:<key>.title`). */
  titleKey?: string;
  /** The role key the page asks for, where it is not the entity's own. */
  accessKey?: AccessKey;
} & (
  | {
      /** Shown in the drawer once the page works, with its icon; pages still to come stay out of it. */
      drawer: DrawerGroup;
      icon: DrawerIcon;
    }
  | { drawer?: undefined; icon?: undefined }
);

export interface ResourceDef<S extends z.ZodObject<z.ZodRawShape> = z.ZodObject<z.ZodRawShape>> {
  /** Registry key and URL segment: "cases". */
  key: string;
  /** Permission resource type of the role message: "case". */
  resource: string;
  accessKey: AccessKey;
  /** API base path: "/api/v1/case". */
  apiPath: string;
  /** Where pickers of a reference to it search (`<path>/search`), when not the entry's own search. */
  pickerPath?: string;
  /** Field shown as the row's title and in reference pickers. */
  titleField: string;
  schema: S;
  fields: FieldDef[];
  columns: ColumnDef[];
  defaultSort: string;
  quickFilters: QuickFilters;
  wizard: WizardStep[];
  /**
   * A rule over several fields (one of two required, ...): the API applies it to every write and a
   * form applies it once it holds all of `fields`. Answers catalogue keys by field, or null.
   */
  crossCheck?: CrossCheck;
  /** Its own pages create and edit it at `/<key>/new` and `/<key>/<id>` (a role's permission matrix), not the generic wizard and record page. */
  ownEditor?: boolean;
  /** A bespoke editor that takes over from the generic edit form: the path that edits one record. */
  editPath?: (id: string) => string;
  /** A bespoke page that shows one record in place of the generic record page (the inbox card). */
  viewPath?: (id: string) => string;
  /** What the record page shows under the record: lists of related records, a rendered preview. */
  sections?: RecordSection[];
  /** The console page of the entity's list (route table and drawer); absent for entities without one. */
  page?: PageEntry;
  /** An import may synchronise: the firm's records absent from the file are deleted. */
  importSync?: boolean;
  /** Another way in beside "New" on the list page: a path and the catalogue key of its label (the inbox's upload). */
  extraAction?: { path: string; labelKey: string };
  /** Spec §8: what a wizard says when the API fails to create one (default 'Item creation failed'). */
  creationFailedKey?: string;
  /** Spec §8: what the edit form says when the API fails to save a change (default 'Settings update failed. Try again later.'). */
  updateFailedKey?: string;
  /** It answers to another entity's permission resource (`resource`), which that entity names in roles. */
  borrowsPermission?: boolean;
  /** Entities whose list pages are tabs of one page (the DMS credential types of /dms), this one among them. */
  siblings?: readonly string[];
  /** A stored record can be tried against the system it names (a DMS credential): its page offers "Test connection". */
  testConnection?: boolean;
  /**
   * A person must approve ECFX at the vendor before it can file (OAuth's authorization code): the
   * record page shows whether it is connected and offers "Connect to <system>" (decision 057).
   */
  authorization?: { system: string };
  /** Part of the firm's configuration: every create, change and delete writes an AUDIT entry. */
  audited?: boolean;
}

/**
 * A part of a record page under the record: a case's notices and documents, its ECFX Track
 * subscription and its retrieve, an envelope's documents, a template's preview.
 */
export type RecordSection = "caseNotices" | "caseDocuments" | "caseTracking" | "caseRetrieve" | "envelopeDocuments" | "templatePreview" | "webhookDeliveries";

export interface CrossCheck {
  fields: string[];
  check(values: Record<string, unknown>, id?: string): Record<string, string> | null;
}

export function defineResource<S extends z.ZodObject<z.ZodRawShape>>(def: ResourceDef<S>): ResourceDef<S> {
  return def;
}

/** What the API answers for a secret that is set: the secret itself never leaves the server. */
export const SECRET_KEPT = "********";

/** Keys of the catalogue for an entity's labels. */
export const fieldLabelKey = (resourceKey: string, field: string) => `resources:${resourceKey}.fields.${field}`;
export const resourceTitleKey = (resourceKey: string) => `resources:${resourceKey}.title`;
export const resourceSingularKey = (resourceKey: string) => `resources:${resourceKey}.singular`;

/** The page that shows one record: the entity's own page where it declares one, else the generic record page. */
export const recordPath = (def: Pick<ResourceDef, "key" | "viewPath">, id: string) => def.viewPath?.(id) ?? `/${def.key}/${encodeURIComponent(id)}`;
