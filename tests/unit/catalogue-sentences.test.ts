import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// What people read about a notice (reasons, dispositions, fetch and filing errors, the notice PDF,
// mail) comes from the catalogue: the code names keys, the keys exist, and no sentence is left in the code.

const ROOT = path.resolve(import.meta.dirname, "../..");
const CATALOGUE_DIR = path.join(ROOT, "locales/en");
const SENTENCE_FREE = ["server/pipeline", "server/notify", "server/filing", "server/mail", "server/inbox", "server/queue", "server/courts/connector.ts"];
/** The made-up notice the template preview falls back to: a notice's own words, not the product's. */
const NOTICE_DATA = new Set(["server/mail/sample-notice.ts"]);
/** SMTP replies are protocol text, read by the sending mail server, not by people. */
const PROTOCOL_TEXT = new Set(["server/inbox/smtp-listener.ts"]);

function sourceFiles(relative: string): string[] {
  const full = path.join(ROOT, relative);
  if (!fs.statSync(full).isDirectory()) return [relative];
  return fs
    .readdirSync(full, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => path.join(relative, f));
}

const catalogue: Record<string, unknown> = Object.fromEntries(
  fs
    .readdirSync(CATALOGUE_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => [f.replace(/\.json$/, ""), JSON.parse(fs.readFileSync(path.join(CATALOGUE_DIR, f), "utf8"))]),
);

function hasKey(key: string): boolean {
  const [ns, rest] = key.includes(":") ? (key.split(/:(.*)/s) as [string, string]) : ["common", key];
  let node: unknown = catalogue[ns];
  const parts = rest.split(".");
  for (const [index, part] of parts.entries()) {
    if (typeof node !== "object" || node === null) return false;
    const record = node as Record<string, unknown>;
    // A counted message is stored as key_one / key_other.
    node = index === parts.length - 1 && !(part in record) ? record[`${part}_other`] : record[part];
  }
  return typeof node === "string";
}

/** Comments out, so that explanations in English are not mistaken for sentences shown to people. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

describe("the server's sentences live in the catalogue", () => {
  const serverFiles = sourceFiles("server");

  it("names only catalogue keys that exist", () => {
    const missing: string[] = [];
    let used = 0;
    for (const file of serverFiles) {
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      for (const match of text.matchAll(/\b(?:message|catalogue|serverT\(\))\(\s*"([a-z-]+:[\w.-]+)"/g)) {
        used++;
        if (!hasKey(match[1]!)) missing.push(`${file}: ${match[1]}`);
      }
    }
    expect(used).toBeGreaterThan(60);
    expect(missing).toEqual([]);
  });

  it("leaves no English sentence in pipeline, notification, storage and mail code", () => {
    // A literal of three words or more that starts with a capital letter reads as a sentence;
    // errors that only a developer sees (`throw new Error`) and log lines are not shown to anyone.
    const sentence = /(["`])([A-Z][a-z']*(?:\s+(?:\$\{[^}]+\}|[\w'’,;:()-]+)){2,}[^"`]*)\1/g;
    const found: string[] = [];
    for (const file of SENTENCE_FREE.flatMap(sourceFiles).filter((f) => !NOTICE_DATA.has(f) && !PROTOCOL_TEXT.has(f))) {
      for (const line of code(fs.readFileSync(path.join(ROOT, file), "utf8")).split("\n")) {
        if (/throw new Error\(|\.log\.|console\./.test(line)) continue;
        for (const match of line.matchAll(sentence)) found.push(`${file}: ${match[2]}`);
      }
    }
    expect(found).toEqual([]);
  });
});
