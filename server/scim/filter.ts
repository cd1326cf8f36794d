import { type Filter, Tester, parse } from "scim2-parse-filter";
import { GROUP_SCHEMA, ScimError, USER_SCHEMA } from "./protocol";

// Filters (RFC 7644 §3.4.2.2) are read by scim2-parse-filter and applied to the SCIM form of the
// firm's users or groups. The attributes we offer are not case-exact (userName, e-mail, names,
// displayName), so strings compare without regard to case, as RFC 7643 §2.1 asks of them.

type CompValue = boolean | null | number | string;
const folded = <T>(value: T): T => (typeof value === "string" ? (value.toLowerCase() as T) : value);

class CaseFoldingTester extends Tester {
  override eq(r: unknown, v: CompValue) {
    return super.eq(folded(r), folded(v));
  }
  override ne(r: unknown, v: CompValue) {
    return super.ne(folded(r), folded(v));
  }
  override co(r: unknown, v: CompValue) {
    return super.co(folded(r), folded(v));
  }
  override sw(r: unknown, v: CompValue) {
    return super.sw(folded(r), folded(v));
  }
  override ew(r: unknown, v: CompValue) {
    return super.ew(folded(r), folded(v));
  }
}

/** A path named with its core schema (`urn:…:User:userName`) is the attribute itself. */
function withoutCoreSchema(filter: Filter): Filter {
  const strip = (path: string) => {
    for (const urn of [USER_SCHEMA, GROUP_SCHEMA]) if (path.toLowerCase().startsWith(`${urn.toLowerCase()}:`)) return path.slice(urn.length + 1);
    return path;
  };
  switch (filter.op) {
    case "and":
    case "or":
      return { ...filter, filters: filter.filters.map(withoutCoreSchema) };
    case "not":
      return { ...filter, filter: withoutCoreSchema(filter.filter) };
    default:
      return { ...filter, attrPath: strip(filter.attrPath) } as Filter;
  }
}

/** The test a `filter` query parameter asks for; an unreadable filter is a 400 invalidFilter. */
export function filterOf(text: unknown): (resource: unknown) => boolean {
  if (text === undefined || text === "") return () => true;
  if (typeof text !== "string") throw new ScimError(400, "The filter must be one string.", "invalidFilter");
  let filter: Filter;
  try {
    filter = withoutCoreSchema(parse(text));
  } catch {
    throw new ScimError(400, `The filter cannot be read: ${text.slice(0, 200)}`, "invalidFilter");
  }
  const tester = new CaseFoldingTester();
  return (resource) => tester.test(resource, filter);
}

/** Parses a filter inside a PATCH path (`members[value eq "…"]`). */
export function valueFilterOf(text: string): (value: unknown) => boolean {
  try {
    return filterOf(text);
  } catch {
    throw new ScimError(400, `The path's filter cannot be read: ${text.slice(0, 200)}`, "invalidPath");
  }
}
