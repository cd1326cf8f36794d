import type { Kysely } from "kysely";
import type { DB } from "../db/schema";
import type { ResourceDef } from "../../app/common/resources/types";
import type { Caller } from "../auth/caller";
import type { ServerContext } from "../context";

/**
 * How an API field maps to SQL: a plain column, or an expression over the row (counts). Built from
 * the field's declaration (server/resources/columns.ts); never written by hand.
 */
export interface ColumnSpec {
  /** SQL expression; `t` is the table's alias. Defaults to the column of the same name. */
  expr?: string;
  type: "text" | "number" | "boolean" | "date" | "millis" | "json";
  sortable?: boolean;
  filterable?: boolean;
  /** How a filter value matches: the whole value (ids, choices) or a part of it. */
  match?: "exact" | "contains";
}

/** Where a list field (kind "references") is stored: a link table, or the target's own rows. */
export interface LinkStorage {
  table: string;
  ownerColumn: string;
  valueColumn: string;
  /**
   * The list is the rows of `table` (the target itself) whose `ownerColumn` points at the owner:
   * a preference group's timekeepers are the timekeepers whose group it is. Writing the list
   * moves those rows; deleting the owner releases them.
   */
  inverse?: boolean;
  /** The catalogue key said when a value names nothing that exists (default: pick an existing entry). */
  unknownMessageKey?: string;
}

/** One write of the generic module, as a hook sees it: the values sent, and the row's id unless created. */
export interface RowWrite {
  action: "create" | "update" | "delete";
  id?: string;
  values: Record<string, unknown>;
}

/** A list field stored in a link table (a case's timekeepers, a jurisdiction's courts). */
export interface LinkSpec extends LinkStorage {
  /** Table the values must exist in, and whether it is the caller's firm's. */
  target: { table: string; firmOwned: boolean };
}

export interface UniqueRule {
  fields: string[];
  /** Catalogue key of the message a clash gets. */
  messageKey: string;
  /** Unique among all firms' rows, not only the caller's (e-mail addresses sign in without a firm). */
  acrossFirms?: boolean;
}

/**
 * The server-only facts of an entity, keyed by its registry key: where it is stored and the rules
 * the API enforces. The fields themselves (names, kinds, references, sort and filter flags) come
 * from the entity's declaration in app/common/resources/ and are never repeated here.
 */
export interface ServerExtension {
  table: string;
  /** Rows belong to a firm and are only ever read and written within it (default true). */
  firmOwned?: boolean;
  /** The generic API writes it (default true); the pipeline's own tables are read-only here. */
  writable?: boolean;
  /** `table` is a view over other tables (read only): it has no SQLite rowid to page by. */
  view?: boolean;
  /** Rows carry created_at and updated_at (default true); "created": only created_at (a log). */
  stamped?: boolean | "created";
  /** SQL of the declared computed fields that are not columns (counts); `t` is the row. */
  expressions?: Record<string, string>;
  /** Where each declared list field is stored. */
  links?: Record<string, LinkStorage>;
  /** Free text: fields of the full-text index, or fields matched with LIKE where there is none. */
  search: { indexed: string[] } | { like: string[] };
  uniques?: UniqueRule[];
  /** Rows that must not be left dangling: deleting is refused while any exists. */
  dependents?: { table: string; column: string; messageKey: string }[];
  /** Extra column values derived from the validated input (normalised numbers, ...). */
  derive?: (values: Record<string, unknown>) => Record<string, unknown>;
  /** Rows left out unless the query filters on `field` itself (archived inbox items). */
  defaultFilter?: { field: string; sql: string };
  /** Condition of the Not Mapped quick filter, as SQL over alias `t`. */
  notMappedSql?: string;
  hooks?: ServerHooks;
}

/** Resource-specific work around writes (the user resource invites new users). */
export interface ServerHooks {
  /** Refuses a write the role allows but the entity does not (walls managed by timekeepers). */
  guardWrite?(ctx: ServerContext, caller: Caller): Promise<void>;
  /**
   * Refuses a write by what it changes and whose row it is (a user's role, an administrator);
   * may return work for once the write has committed (an audit entry), given the row's id.
   * `db` is the transaction the write runs in, when it runs in one (an import batch).
   */
  authorizeWrite?(ctx: ServerContext, caller: Caller, write: RowWrite, db?: Kysely<DB>): Promise<((id: string) => Promise<void>) | void>;
  /**
   * Refuses a write by a rule over several rows (the firm keeps an administrator). Runs first in
   * the write's own transaction, so a refusal writes nothing and two writes at once cannot both
   * pass a rule that only one of them may.
   */
  insideWrite?(trx: Kysely<DB>, ctx: ServerContext, caller: Caller, write: RowWrite): Promise<void>;
  /** Checks of the whole row that need the database (a template that compiles). */
  validate?(ctx: ServerContext, caller: Caller, values: Record<string, unknown>): Promise<void>;
  /** Work after any create, update or delete commits (walls recomputed). */
  afterWrite?(ctx: ServerContext, caller: Caller, id: string): Promise<void>;
  beforeInsert?(ctx: ServerContext, caller: Caller, row: Record<string, unknown>): Promise<Record<string, unknown>>;
  afterInsert?(ctx: ServerContext, caller: Caller, row: Record<string, unknown>): Promise<void>;
  /** Work after an update commits, knowing the row before and the values written. */
  afterUpdate?(ctx: ServerContext, caller: Caller, before: Record<string, unknown>, values: Record<string, unknown>): Promise<void>;
}

/** An entity as the generic API serves it: its declaration and its extension, put together once. */
export interface ServerResource {
  def: ResourceDef;
  table: string;
  firmOwned: boolean;
  writable: boolean;
  view: boolean;
  searchable: boolean;
  columns: Record<string, ColumnSpec>;
  links?: Record<string, LinkSpec>;
  /** Reference fields and the table each must point into (always within the caller's firm). */
  references?: Record<string, string>;
  /** Fields whose text feeds the free-text index. */
  searchFields: string[];
  /** Fields a free-text query matches with LIKE when the entity has no free-text index. */
  likeFields?: string[];
  uniques?: UniqueRule[];
  dependents?: ServerExtension["dependents"];
  derive?: ServerExtension["derive"];
  defaultFilter?: ServerExtension["defaultFilter"];
  notMappedSql?: string;
  hooks?: ServerHooks;
}
