import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Every DMS connector reaches its vendor through the one HTTP layer (server/dms/vendor-http.ts),
// which sends each request through the outbound guard (server/outbound/) with the call's
// time-out and reads answers up to a bound. This test reads the sources of server/dms/ and fails
// when a file calls the network another way: fetch, the guard itself, undici's clients, Node's
// http/https/net/tls, another HTTP client, or an SDK left with its own network (see
// docs/dms/adding-a-connector.md and decision 118).

const repo = path.resolve(import.meta.dirname, "../..");
const DMS = "server/dms";
/** The layer itself: the one module that hands requests to the guard. */
const LAYER = "server/dms/vendor-http.ts";

/** Modules no connector imports: they open connections of their own. */
const NETWORK_MODULES = new Set(["http", "https", "net", "tls", "http2", "axios", "got", "node-fetch", "request", "superagent", "ky"]);
/** Of undici, only request bodies may be built; its fetch and clients would bypass the layer. */
const UNDICI_ALLOWED = new Set(["FormData", "Response", "BodyInit"]);

/**
 * Named exceptions, as `file: call`, each with its reason. Windows sign-in (NTLM) opens the one
 * kept-alive connection its handshake needs from the guard and sends every request on it through
 * the layer (`via`); httpntlm only builds and reads its messages there.
 */
const ALLOWED: Record<string, string[]> = {
  "server/dms/sharepoint/windows-sign-in.ts": ["guard.connection", "httpntlm"],
};

/** SDKs that take a network client of ours: the option that must be given where one is made. */
const SDK_NETWORK: Record<string, string> = {
  "new Dropbox": "fetch",
  "new NetworkSession": "networkClient",
  "Client.initWithMiddleware": "middleware",
  "new ConfidentialClientApplication": "networkClient",
};

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(repo, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(relative);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [relative] : [];
  });
}

/** How `file` reaches the network other than through the layer, as "line: what". */
function networkCalls(file: string, source: string): string[] {
  const allowed = new Set(ALLOWED[file] ?? []);
  const found: string[] = [];
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const report = (node: ts.Node, what: string) => found.push(`${tree.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const module = node.moduleSpecifier.text.replace(/^node:/, "");
      const clause = node.importClause;
      if (NETWORK_MODULES.has(module)) report(node, `imports ${module}`);
      if (module === "httpntlm" && !allowed.has("httpntlm")) report(node, "imports httpntlm");
      if (module === "undici" && clause && !clause.isTypeOnly) {
        const names = clause.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : [];
        if (clause.name || (clause.namedBindings && !ts.isNamedImports(clause.namedBindings))) report(node, "imports undici whole");
        for (const name of names)
          if (!name.isTypeOnly && !UNDICI_ALLOWED.has((name.propertyName ?? name.name).text)) report(name, `imports ${name.name.text} from undici`);
      }
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isIdentifier(callee) && callee.text === "fetch") report(node, "calls fetch");
      if (ts.isPropertyAccessExpression(callee)) {
        const method = callee.name.text;
        const owner = callee.expression;
        const ownerName = ts.isPropertyAccessExpression(owner) ? owner.name.text : ts.isIdentifier(owner) ? owner.text : "";
        if (ownerName === "guard" && (method === "fetch" || method === "connection") && !allowed.has(`guard.${method}`)) report(node, `calls guard.${method}`);
      }
    }
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "httpntlm" && node.name.text !== "ntlm") {
      report(node, `uses httpntlm.${node.name.text}`);
    }
    const made = ts.isNewExpression(node) ? `new ${node.expression.getText(tree)}` : ts.isCallExpression(node) ? node.expression.getText(tree) : undefined;
    const option = made === undefined ? undefined : SDK_NETWORK[made];
    if (option && !(node as ts.CallExpression | ts.NewExpression).arguments?.some((argument) => new RegExp(`\\b${option}\\b`).test(argument.getText(tree)))) {
      report(node, `${made} without its ${option}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

describe("vendor calls", () => {
  it("go through the one HTTP layer in every file of server/dms", () => {
    const offenders = sources(DMS)
      .filter((file) => file !== LAYER)
      .flatMap((file) => networkCalls(file, fs.readFileSync(path.join(repo, file), "utf8")).map((call) => `${file}:${call}`));
    expect(offenders).toEqual([]);
  });

  it("would catch a connector that calls the network another way", () => {
    const bad = [
      'import { fetch, FormData } from "undici";',
      'import https from "node:https";',
      'import type { Response } from "undici";',
      "await fetch(url);",
      "await ctx.guard.fetch(url, purpose, {});",
      "ctx.guard.connection(url, purpose);",
      "httpntlm.get({ url });",
      "new Dropbox({ accessToken });",
      "new Dropbox({ accessToken, fetch: layer });",
    ].join("\n");
    expect(networkCalls("server/dms/acme/acme-api.ts", bad)).toEqual([
      "1: imports fetch from undici",
      "2: imports https",
      "4: calls fetch",
      "5: calls guard.fetch",
      "6: calls guard.connection",
      "7: uses httpntlm.get",
      "8: new Dropbox without its fetch",
    ]);
  });

  it("lets Windows sign-in open its kept-alive connection and build NTLM messages", () => {
    const source = ['import httpntlm from "httpntlm";', "ctx.guard.connection(origin, purpose);", "httpntlm.ntlm.createType1Message(account);"].join("\n");
    expect(networkCalls("server/dms/sharepoint/windows-sign-in.ts", source)).toEqual([]);
    expect(networkCalls("server/dms/sharepoint/graph-api.ts", source)).toEqual(["1: imports httpntlm", "2: calls guard.connection"]);
  });
});
