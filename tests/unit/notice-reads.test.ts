import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { NOTICE_TABLES } from "../../server/resources/read-scope";

// Every read of notice data by a person goes through the one scope (server/resources/read-scope.ts:
// noticeRows, admitRow, scopedRows), which applies the firm, the page and the walls. The modules
// that answer a person, the API's and the console's, never name a notice table in a query of
// their own: this test finds any that does (docs/decisions/088-one-scope-for-every-read-of-notice-data.md).

const repo = path.resolve(import.meta.dirname, "../..");

/** The modules that answer a person: the API and the whole console (which reads only through the API). */
const CHECKED = ["server/api", "app"];

/**
 * Named exceptions, as `file: table`, each with its reason. The worker pipeline (server/pipeline,
 * server/notify, server/storage, server/jobs, server/inbox, server/mail) acts for no caller and is
 * not checked; the generic repository (server/resources) is the scope's own user.
 */
const ALLOWED: Record<string, string> = {};

/** Kysely's builders that name a table in their first argument. */
const TABLE_METHODS = new Set([
  "selectFrom",
  "insertInto",
  "updateTable",
  "deleteFrom",
  "replaceInto",
  "mergeInto",
  "innerJoin",
  "leftJoin",
  "rightJoin",
  "fullJoin",
  "table",
]);
const NOTICE = new Set<string>(NOTICE_TABLES);
const SQL_NAMES = new RegExp(`\\b(?:from|join|into|update)\\s+(${NOTICE_TABLES.join("|")})\\b`, "gi");

/** The notice tables a module's source queries directly, as `table (line N)`. */
export function directNoticeQueries(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node, table: string) => found.push(`${table} (line ${file.getLineAndCharacterOfPosition(node.getStart()).line + 1})`);
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && TABLE_METHODS.has(node.expression.name.text)) {
      const first = node.arguments[0];
      if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
        const table = first.text.trim().split(/\s+as\s+/i)[0]!;
        if (NOTICE.has(table)) at(node, table);
      }
    }
    // Raw SQL: sql`... from inbox_item ...`, in any tagged template.
    if (ts.isTaggedTemplateExpression(node)) {
      const text = ts.isNoSubstitutionTemplateLiteral(node.template)
        ? node.template.text
        : [node.template.head.text, ...node.template.templateSpans.map((s) => s.literal.text)].join(" ");
      for (const match of text.matchAll(SQL_NAMES)) at(node, match[1]!.toLowerCase());
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function modules(folder: string): string[] {
  return fs
    .readdirSync(path.join(repo, folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.relative(repo, path.join(e.parentPath, e.name)));
}

describe("one scope for every read of notice data", () => {
  it("finds a route that queries a notice table itself, through Kysely or raw SQL", () => {
    const bypasses = `
      app.get("/x", async () => {
        await db.selectFrom("outbound_mail").selectAll().execute();
        await db.selectFrom("webhook_delivery as d").innerJoin("inbox_item as i", "i.id", "d.inbox_item_id").execute();
        await sql\`select * from event_log where firm_id = \${1}\`.execute(db);
        await db.selectFrom("webhook").selectAll().execute();
        await (await noticeRows(db, caller, "outbound_mail")).selectAll("t").execute();
      });`;
    expect(directNoticeQueries("route.ts", bypasses).sort()).toEqual([
      "event_log (line 5)",
      "inbox_item (line 4)",
      "outbound_mail (line 3)",
      "webhook_delivery (line 4)",
    ]);
  });

  it("finds no such query in the API's and the console's modules", () => {
    const found = CHECKED.flatMap(modules).flatMap((file) =>
      directNoticeQueries(file, fs.readFileSync(path.join(repo, file), "utf8"))
        .filter((hit) => !ALLOWED[`${file}: ${hit.split(" ")[0]}`])
        .map((hit) => `${file}: ${hit}`),
    );
    expect(found).toEqual([]);
  });

  it("knows the scope of every table it names, and every exception still applies", () => {
    for (const key of Object.keys(ALLOWED)) {
      const [file, table] = key.split(": ");
      expect(NOTICE.has(table!), key).toBe(true);
      expect(
        directNoticeQueries(file!, fs.readFileSync(path.join(repo, file!), "utf8")).map((h) => h.split(" ")[0]),
        key,
      ).toContain(table);
    }
  });
});
