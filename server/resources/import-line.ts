import { FALSE_WORDS, LIST_SEPARATOR, TRUE_WORDS } from "../../app/common/import/format";
import type { FieldDef } from "../../app/common/resources/types";
import type { ZodIssue } from "zod";
import { type FieldErrors, catalogueMessage } from "../lib/errors";
import { message } from "../lib/messages";
import type { ImportFile, ImportLine } from "./import-file";
import type { ServerResource } from "./types";

// One line of an import file turned into the values a create would take, validated by the
// entity's own schema. Nothing here touches the database.

type Row = Record<string, unknown>;

export interface ParsedLine {
  line: number;
  /** The validated values, schema defaults included (what a new record gets). */
  values: Row;
  /** Fields whose cells were not empty: an update writes only these. */
  given: string[];
  /** The id column's value, naming the record to update. */
  id?: string;
  /** Reasons the line is rejected, by field ("_row" for the line as a whole). */
  errors: FieldErrors;
  /** How the report names the record: its number, reference or title. */
  record: string;
}

const issue = (key: string, values?: Record<string, unknown>) => message(`transfer:import.${key}`, values);

function cellToValue(field: FieldDef, cell: string): { value?: unknown; error?: string } {
  switch (field.kind) {
    case "boolean": {
      const word = cell.toLowerCase();
      if ((TRUE_WORDS as readonly string[]).includes(word)) return { value: true };
      if ((FALSE_WORDS as readonly string[]).includes(word)) return { value: false };
      return { error: issue("invalidBoolean") };
    }
    case "number": {
      const n = Number(cell);
      return Number.isFinite(n) ? { value: n } : { error: issue("invalidNumber") };
    }
    case "references":
    case "emails":
    case "choices":
      return {
        value: cell
          .split(LIST_SEPARATOR)
          .map((v) => v.trim())
          .filter(Boolean),
      };
    default:
      return { value: cell };
  }
}

/**
 * A schema issue in the catalogue's words. The entity's validators mostly speak in catalogue keys
 * already; what zod says by itself ("Expected string, received number") is never shown.
 */
function issueMessage(problem: ZodIssue): string {
  if (problem.message.startsWith("errors:")) return catalogueMessage(problem.message);
  switch (problem.code) {
    case "invalid_type":
      return problem.received === "undefined" || problem.received === "null" ? message("errors:required") : issue("invalidValue");
    case "invalid_enum_value":
      return issue("invalidOption", { options: problem.options.join(", ") });
    case "invalid_string":
      return problem.validation === "email" ? message("errors:invalidEmail") : issue("invalidValue");
    case "too_small":
      return problem.type === "string" && problem.minimum === 1 ? message("errors:required") : issue("invalidValue");
    case "too_big":
      return problem.type === "string" ? catalogueMessage(`errors:fieldLength|${problem.maximum}`) : issue("invalidValue");
    default:
      return issue("invalidValue");
  }
}

function recordName(res: ServerResource, raw: Row, id: string | undefined): string {
  const name = raw.unique_key ?? raw.reference_id ?? raw[res.def.titleField] ?? id ?? "";
  return String(name);
}

export function parseLine(res: ServerResource, file: ImportFile, input: ImportLine): ParsedLine {
  const errors: FieldErrors = {};
  const raw: Row = {};
  const given: string[] = [];
  let id: string | undefined;
  if (input.cells.length !== file.width) {
    errors._row = [issue("columnCount", { found: input.cells.length, expected: file.width })];
  }
  for (const column of file.columns) {
    const cell = input.cells[column.index] ?? "";
    if (cell === "") continue;
    if (!column.field) {
      id = cell;
      continue;
    }
    const { value, error } = cellToValue(column.field, cell);
    if (error) errors[column.name] = [error];
    else raw[column.name] = value;
    given.push(column.name);
  }
  const parsed = res.def.schema.safeParse(raw);
  if (!parsed.success) {
    const unreadable = new Set(Object.keys(errors));
    // List items report as "field.2"; the report speaks of the field. A cell that could not be
    // read already has its reason, not the schema's "required" as well.
    for (const problem of parsed.error.issues) {
      const field = problem.path.length ? String(problem.path[0]) : "_row";
      if (unreadable.has(field)) continue;
      const reasons = (errors[field] ??= []);
      const reason = issueMessage(problem);
      if (!reasons.includes(reason)) reasons.push(reason);
    }
  }
  return { line: input.line, values: parsed.success ? (parsed.data as Row) : raw, given, id, errors, record: recordName(res, raw, id) };
}
