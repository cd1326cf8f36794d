import fs from "node:fs";
import path from "node:path";
import { type Token, type Tokens, marked } from "marked";

// The release notes of /totest, read from the CHANGELOG.md the product ships (Keep a Changelog:
// "## [version] - date", "### Added", bullet lists). Only the parts that format defines are kept;
// text and links are data for the page, never HTML.

export type Inline = { kind: "text" | "code" | "strong" | "em"; text: string } | { kind: "link"; text: string; href: string };

export interface ReleaseSection {
  heading: string;
  items: Inline[][];
}

export interface Release {
  /** "Unreleased" or the version. */
  version: string;
  /** ISO date (YYYY-MM-DD) of a released version. */
  date: string | null;
  sections: ReleaseSection[];
}

const RELEASE_HEADING = /^\[?([^\]\s]+)\]?(?:\s+-\s+(\d{4}-\d{2}-\d{2}))?/;
// Only web and mail addresses become links: a javascript: or data: target stays text.
const SAFE_HREF = /^(https?:|mailto:)/i;

// The lexer hands text over HTML-escaped (its own five entities); the page gets plain text.
const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
const plain = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);

function inline(tokens: Token[] | undefined, out: Inline[] = []): Inline[] {
  for (const token of tokens ?? []) {
    switch (token.type) {
      case "codespan":
        out.push({ kind: "code", text: plain((token as Tokens.Codespan).text) });
        break;
      case "link": {
        const link = token as Tokens.Link;
        if (SAFE_HREF.test(link.href)) out.push({ kind: "link", text: plain(link.text), href: link.href });
        else out.push({ kind: "text", text: plain(link.text) });
        break;
      }
      case "strong":
      case "em":
        out.push({ kind: token.type, text: plain((token as Tokens.Strong).text) });
        break;
      case "text":
        if ((token as Tokens.Text).tokens?.length) inline((token as Tokens.Text).tokens, out);
        else out.push({ kind: "text", text: plain((token as Tokens.Text).text) });
        break;
      default:
        out.push({ kind: "text", text: "text" in token && typeof token.text === "string" ? plain(token.text) : token.raw });
    }
  }
  return out;
}

/** Merges neighbouring text runs (a list item's line breaks become spaces). */
function tidy(parts: Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const part of parts) {
    const text = part.text.replace(/\s*\n\s*/g, " ");
    const last = out.at(-1);
    if (part.kind === "text" && last?.kind === "text") last.text += text;
    else out.push({ ...part, text });
  }
  return out;
}

export function parseChangelog(markdown: string): Release[] {
  const releases: Release[] = [];
  let section: ReleaseSection | null = null;
  for (const token of marked.lexer(markdown)) {
    if (token.type === "heading") {
      const heading = token as Tokens.Heading;
      if (heading.depth === 2) {
        const match = RELEASE_HEADING.exec(heading.text.trim());
        releases.push({ version: match?.[1] ?? heading.text.trim(), date: match?.[2] ?? null, sections: [] });
        section = null;
      } else if (heading.depth === 3 && releases.length > 0) {
        section = { heading: heading.text.trim(), items: [] };
        releases.at(-1)!.sections.push(section);
      }
    } else if (token.type === "list" && section) {
      for (const item of (token as Tokens.List).items) section.items.push(tidy(inline(item.tokens)));
    }
  }
  return releases;
}

let cached: { file: string; mtimeMs: number; releases: Release[] } | null = null;

/** The product's release notes; an installation without the file has none. */
export function readReleaseNotes(root = process.cwd()): Release[] {
  const file = path.join(root, "CHANGELOG.md");
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return [];
  }
  if (cached?.file !== file || cached.mtimeMs !== mtimeMs) cached = { file, mtimeMs, releases: parseChangelog(fs.readFileSync(file, "utf8")) };
  return cached.releases;
}
