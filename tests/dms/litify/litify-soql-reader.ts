// The local Salesforce's reading of SOQL: the statements a client of the REST query resource
// sends for single-object lookups (SELECT fields FROM object [WHERE field = literal [AND …]]
// [LIMIT n]), literals with SOQL's escapes. Anything else is a malformed query, as Salesforce
// would answer it (MALFORMED_QUERY), so a client that builds SOQL carelessly is caught.

export interface SoqlQuery {
  fields: string[];
  object: string;
  where: { field: string; value: string | boolean }[];
  limit?: number;
}

export class MalformedQuery extends Error {}

const UNESCAPE: Record<string, string> = { "\\": "\\", "'": "'", '"': '"', n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };
const NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*/;

export function readSoql(soql: string): SoqlQuery {
  let rest = soql.trim();
  const take = (pattern: RegExp, what: string): string => {
    const match = pattern.exec(rest);
    if (!match) throw new MalformedQuery(`expecting ${what} at "${rest.slice(0, 30)}"`);
    rest = rest.slice(match[0].length).trimStart();
    return match[0].trim();
  };
  take(/^SELECT\s/i, "SELECT");
  const fields: string[] = [];
  for (;;) {
    fields.push(take(NAME, "a field name"));
    if (!rest.startsWith(",")) break;
    rest = rest.slice(1).trimStart();
  }
  take(/^FROM\s/i, "FROM");
  const object = take(/^[A-Za-z][A-Za-z0-9_]*/, "an object name");
  const where: SoqlQuery["where"] = [];
  if (/^WHERE\s/i.test(rest)) {
    take(/^WHERE\s/i, "WHERE");
    for (;;) {
      const field = take(NAME, "a field name");
      take(/^=/, "=");
      where.push({ field, value: literal() });
      if (!/^AND\s/i.test(rest)) break;
      take(/^AND\s/i, "AND");
    }
  }
  let limit: number | undefined;
  if (/^LIMIT\s/i.test(rest)) {
    take(/^LIMIT\s/i, "LIMIT");
    limit = Number(take(/^\d+/, "a number"));
  }
  if (rest) throw new MalformedQuery(`unexpected token: "${rest.slice(0, 30)}"`);
  return { fields, object, where, limit };

  function literal(): string | boolean {
    if (/^(true|false)\b/i.test(rest)) return take(/^(true|false)\b/i, "a boolean").toLowerCase() === "true";
    if (!rest.startsWith("'")) throw new MalformedQuery(`expecting a quoted string at "${rest.slice(0, 30)}"`);
    let value = "";
    for (let i = 1; i < rest.length; i++) {
      const c = rest[i]!;
      if (c === "\\") {
        const next = rest[++i];
        if (next === undefined || !(next in UNESCAPE)) throw new MalformedQuery(`invalid escape sequence \\${next ?? ""}`);
        value += UNESCAPE[next];
      } else if (c === "'") {
        rest = rest.slice(i + 1).trimStart();
        return value;
      } else if (c === "\n" || c === "\r") {
        throw new MalformedQuery("a line break in a string literal");
      } else {
        value += c;
      }
    }
    throw new MalformedQuery("unterminated string literal");
  }
}
