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
 * server/notify, server/filing, server/queue, server/inbox, server/mail) acts for no caller and is
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

/** The project's modules a module imports for their values (relative and `~/` specifiers). */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(repo, file), "utf8"), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly) || ts.isExportDeclaration(node)) {
      if (node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      specifiers.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.flatMap((s) => {
    const base = s.startsWith(".") ? path.join(path.dirname(file), s) : s.startsWith("~/") ? path.join("app", s.slice(2)) : null;
    if (!base) return [];
    const found = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find((c) =>
      fs.statSync(path.join(repo, c), { throwIfNoEntry: false })?.isFile(),
    );
    return found ? [path.normalize(found)] : [];
  });
}

/** Every module a person's request can run: the API's and the console's, and all they import. */
function reachedByAPerson(): string[] {
  const reached = new Set(CHECKED.flatMap(modules));
  const queue = [...reached];
  while (queue.length > 0) {
    for (const next of importsOf(queue.pop()!)) {
      if (!reached.has(next)) {
        reached.add(next);
        queue.push(next);
      }
    }
  }
  return [...reached].sort();
}

/**
 * Modules below the API that a person's request reaches and that name a notice table, each with
 * why that is safe. A new one fails the test until it goes through the scope or is named here.
 */
const REACHED_ALLOWED: Record<string, string> = {
  "server/resources/read-scope.ts": "the scope itself",
  "server/resources/document-list.ts": "filters by rowScopeSql of the ReadScope its route passes",
  "server/pipeline/inbox-card.ts": "reads one notice the route admitted first (admitRow)",
  "server/stored-mail/stored-message.ts": "reads one notice the route admitted first (admitRow)",
  "server/dms/dms-records.ts": "lists the copies of one notice the route admitted first (admitRow)",
  "server/mail/notice-template.ts": "renders a notice the route read through noticeRows",
  "server/db/case-context.ts": "the case of a notice notice-template.ts was given",
  "server/dashboard/aggregates.ts": "counts outside the matters of walledMatterIds, from the caller's ReadScope, that the route passes",
  "server/dashboard/exact-counts.ts": "counts outside the matters of walledMatterIds, from the caller's ReadScope, that the route passes",
  "server/webhooks/webhook-events.ts": "builds a delivery's payload for the worker; the deliveries log reads through noticeRows",
  "server/queue/event-log.ts": "writes events; reading them goes through the generic repository",
  "server/queue/logged-change.ts": "writes a step's change of a notice with its event and next jobs (writes)",
  "server/walls/apply-walls.ts": "hides notices and notifications when a wall changes (writes)",
  "server/pipeline/inbox-operations.ts": "changes notices the route admitted first (admitRow, admitRows)",
  "server/pipeline/item-state.ts": "moves an admitted notice between states (writes)",
  "server/filing/requeue.ts": "queues an admitted notice's filing again (writes)",
  "server/inbox/receive.ts": "stores an uploaded message as a new notice (writes)",
  "server/inbox/receive-docket-entry.ts": "stores a tracked case's entry as a new notice (writes)",
  "server/pipeline/case-retrieve.ts": "the worker's case retrieval, queued by the route",
  "server/pipeline/missed-notices.ts": "the worker's reconciliation, queued by the route",
  "server/pipeline/case-docket-entries.ts": "keeps a tracked case's entries (writes)",
  "server/pipeline/fetch-document.ts": "the worker's document fetch, queued by the route",
  "server/pipeline/extract-title.ts": "the worker's title extraction, queued by the route",
  "server/pipeline/stamp-wait.ts": "stamps a notice's wait (writes)",
  "server/billing/exports.ts": "review time per notice, outside the matters of walledMatterIds, from the caller's ReadScope, that the route passes",
  "server/billing/invoices.ts": "counts a tracked case's entries for the firm's invoice; an invoice line names the case, never a notice",
};

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

  it("finds no such query in what the API's and the console's modules import, but the named ones", () => {
    const reached = reachedByAPerson();
    const found = reached
      .filter((file) => !CHECKED.some((folder) => file.startsWith(`${folder}/`)) && !REACHED_ALLOWED[file])
      .filter((file) => directNoticeQueries(file, fs.readFileSync(path.join(repo, file), "utf8")).length > 0);
    expect(found).toEqual([]);
    // Each named module is still reached and still queries a notice table: the list stays true.
    for (const file of Object.keys(REACHED_ALLOWED)) {
      expect(reached, file).toContain(file);
      expect(directNoticeQueries(file, fs.readFileSync(path.join(repo, file), "utf8")).length, file).toBeGreaterThan(0);
    }
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
