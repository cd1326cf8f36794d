import type { ResourceDef } from "../../app/shared/resources/types";
import type { Caller } from "../auth/caller";
import type { ServerContext } from "../context";

/** How an API field maps to SQL: a plain column, or an expression over the row (counts). */
export interface ColumnSpec {
  /** SQL expression; `t` is the table's alias. Defaults to the column of the same name. */
  expr?: string;
  type: "text" | "number" | "boolean" | "date" | "millis" | "json";
  sortable?: boolean;
  filterable?: boolean;
}

/** A list field stored in a link table (a case's timekeepers, a jurisdiction's courts). */
export interface LinkSpec {
  table: string;
  ownerColumn: string;
  valueColumn: string;
  /** Table the values must exist in, and whether it is the caller's firm's. */
  target: { table: string; firmOwned: boolean };
  /**
   * The list is the rows of `table` (the target itself) whose `ownerColumn` points at the owner:
   * a preference group's timekeepers are the timekeepers whose group it is. Writing the list
   * moves those rows; deleting the owner releases them.
   */
  inverse?: boolean;
}

/** The server-only half of a registry entry: where it lives and the rules the API enforces. */
export interface ServerResource {
  def: ResourceDef;
  table: string;
  firmOwned: boolean;
  writable: boolean;
  searchable: boolean;
  columns: Record<string, ColumnSpec>;
  links?: Record<string, LinkSpec>;
  /** Reference fields and the table each must point into (always within the caller's firm). */
  references?: Record<string, string>;
  /** Fields whose text feeds the free-text index. */
  searchFields: string[];
  /** Uniqueness checked before writing, with the message a clash gets (a catalogue key). */
  uniques?: { fields: string[]; messageKey: string; normalise?: (v: string) => string }[];
  /** Rows that must not be left dangling: deleting is refused while any exists. */
  dependents?: { table: string; column: string; messageKey: string }[];
  /** Extra column values derived from the validated input (normalised numbers, ...). */
  derive?: (values: Record<string, unknown>) => Record<string, unknown>;
  /** Fields a free-text query matches with LIKE when the entity has no free-text index. */
  likeFields?: string[];
  /** Rows left out unless the query filters on `field` itself (archived inbox items). */
  defaultFilter?: { field: string; sql: string };
  /** Condition of the Not Mapped quick filter, as SQL over alias `t`. */
  notMappedSql?: string;
  /** Resource-specific work around writes (the user resource invites new users). */
  hooks?: {
    /** Refuses a write the role allows but the entity does not (walls managed by timekeepers). */
    guardWrite?(ctx: ServerContext, caller: Caller): Promise<void>;
    /** Checks of the whole row that need the database (a template that compiles). */
    validate?(ctx: ServerContext, caller: Caller, values: Record<string, unknown>): Promise<void>;
    /** Work after any create, update or delete commits (walls recomputed). */
    afterWrite?(ctx: ServerContext, caller: Caller, id: string): Promise<void>;
    beforeInsert?(ctx: ServerContext, caller: Caller, row: Record<string, unknown>): Promise<Record<string, unknown>>;
    afterInsert?(ctx: ServerContext, caller: Caller, row: Record<string, unknown>): Promise<void>;
  };
}
