// Turns a message body (HTML or plain text) into one "text document": lines of
// whitespace-collapsed text plus the links found in it, with their positions.
// The notice parsers work on this form only, so HTML, plain-text and
// forwarded layouts share one code path.
//
// HTML goes through a tokenising pass (html-scan.ts) rather than a parser or a
// DOM: a parser keeps a stack of open elements whose handling is quadratic on
// deeply nested or unbalanced markup, and we need no tree, only text, block
// boundaries and anchors.
import { scanHtml } from "./html-scan";
import { MAX_ATTRIBUTE_CHARS, MAX_HTML_CHARS, MAX_LINKS, MAX_TEXT_CHARS } from "./limits";
import { stripSimpleTags, trimChars } from "./text-utils";

export interface TextLink {
  href: string;
  /** Visible text of the link (for plain text: the URL itself). */
  text: string;
  start: number;
  end: number;
}

export interface TextDoc {
  /** Lines separated by "\n"; runs of spaces collapsed; no empty lines. */
  text: string;
  links: TextLink[];
  /** The body was longer than the caps in limits.ts and was cut. */
  truncated: boolean;
}

const BLOCK_TAGS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "br",
  "caption",
  "center",
  "dd",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "html",
  "li",
  "main",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "tbody",
  "tfoot",
  "thead",
  "tr",
  "ul",
]);
const CELL_TAGS = new Set(["td", "th"]);
// Their content is never visible (the first four are raw text to the scanner).
const SKIP_TAGS = new Set(["script", "style", "title", "textarea", "noscript", "template"]);

const WHITESPACE = /[\s\u00a0\u2000-\u200a\u202f\u205f\u3000]+/g;
// Zero-width and bidirectional formatting characters (see BIDI_CONTROLS) are dropped.
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\u061c\ufeff\u00ad]/g;
// Anything other than single spaces between words needs the two passes above.
const NEEDS_CLEANING = /[\t\n\v\f\r\u00a0\u00ad\u061c\u1680\u2000-\u200f\u2028-\u202f\u205f\u2060\u2066-\u2069\u3000\ufeff]| {2}/;

class TextBuilder {
  private parts: string[] = [];
  length = 0;
  /** Last character written: "" at start, "\n", " " or "x" for anything else. */
  private last = "";
  full = false;

  write(raw: string): void {
    if (this.full) return;
    // Runs of blanks between tags are common and need no regular expression (U+FEFF is blank
    // to trim() but removed, not turned into a space).
    let s = raw;
    if (NEEDS_CLEANING.test(raw)) s = raw.trim() === "" && !raw.includes("\ufeff") ? " " : raw.replace(INVISIBLE, "").replace(WHITESPACE, " ");
    if (!s) return;
    if (s.startsWith(" ") && (this.last === "" || this.last === "\n" || this.last === " ")) s = s.slice(1);
    if (!s) return;
    if (this.length + s.length > MAX_TEXT_CHARS) {
      s = s.slice(0, Math.max(0, MAX_TEXT_CHARS - this.length));
      this.full = true;
    }
    this.parts.push(s);
    this.length += s.length;
    this.last = s.endsWith(" ") ? " " : "x";
  }

  newline(): void {
    if (this.full || this.last === "" || this.last === "\n") return;
    if (this.last === " ") this.trimTrailingSpace();
    if (this.length === 0) return;
    this.parts.push("\n");
    this.length += 1;
    this.last = "\n";
  }

  private trimTrailingSpace(): void {
    const i = this.parts.length - 1;
    const tail = this.parts[i];
    if (tail === undefined || !tail.endsWith(" ")) return;
    this.parts[i] = tail.slice(0, -1);
    this.length -= 1;
    this.last = this.parts[i] ? "x" : this.length === 0 ? "" : "x";
  }

  toString(): string {
    return trimChars(this.parts.join(""), " \n", "end");
  }
}

interface OpenAnchor {
  href: string;
  start: number;
}

/** Text document of an HTML body. Never throws. */
export function htmlToTextDoc(html: string): TextDoc {
  const truncated = html.length > MAX_HTML_CHARS;
  const source = truncated ? html.slice(0, MAX_HTML_CHARS) : html;
  const out = new TextBuilder();
  const links: TextLink[] = [];
  const anchors: OpenAnchor[] = [];

  let skipping: string | null = null;
  // Inside <pre> (a plain-text notice sent as HTML) line ends are line ends.
  let preDepth = 0;

  // Text arrives in pieces around tags and entities; it is joined and
  // normalised once per run of text.
  let pending = "";
  const flush = () => {
    if (pending && preDepth > 0 && /[\r\n]/.test(pending)) {
      pending.split(/\r\n|\r|\n/).forEach((line, i) => {
        if (i > 0) out.newline();
        out.write(line);
      });
    } else if (pending) out.write(pending);
    pending = "";
  };

  const openTag = (name: string, href: string | null) => {
    flush();
    if (skipping) return;
    if (SKIP_TAGS.has(name)) {
      skipping = name;
      return;
    }
    if (BLOCK_TAGS.has(name)) out.newline();
    else if (CELL_TAGS.has(name)) out.write(" ");
    if (name === "pre") preDepth++;
    if (name === "a") {
      // An <a> inside an open <a> is invalid; close the outer one first as browsers do.
      const open = anchors.pop();
      if (open) closeAnchor(open);
      anchors.push({ href: href === null ? "" : href.trim().slice(0, MAX_ATTRIBUTE_CHARS), start: out.length });
    }
  };

  const closeAnchor = (open: OpenAnchor) => {
    if (!open.href || links.length >= MAX_LINKS) return;
    links.push({ href: open.href, text: "", start: open.start, end: out.length });
  };

  const closeTag = (name: string) => {
    flush();
    if (skipping) {
      if (name === skipping) skipping = null;
      return;
    }
    if (BLOCK_TAGS.has(name)) out.newline();
    else if (CELL_TAGS.has(name)) out.write(" ");
    if (name === "pre" && preDepth > 0) preDepth--;
    if (name === "a") {
      const open = anchors.pop();
      if (open) closeAnchor(open);
    }
  };

  try {
    scanHtml(source, {
      text(text) {
        if (!skipping && pending.length < MAX_TEXT_CHARS) pending += text;
      },
      openTag(name, href, selfClosing) {
        openTag(name, href);
        if (selfClosing && name !== "br") closeTag(name);
      },
      closeTag,
    });
  } catch {
    // A scanner failure leaves whatever text was collected so far.
  }
  flush();
  for (let open = anchors.pop(); open; open = anchors.pop()) closeAnchor(open);

  const text = out.toString();
  for (const link of links) {
    link.start = Math.min(link.start, text.length);
    link.end = Math.min(Math.max(link.end, link.start), text.length);
    link.text = text.slice(link.start, link.end).trim();
  }
  links.sort((a, b) => a.start - b.start);
  return { text, links, truncated: truncated || out.full };
}

const URL_IN_TEXT = /https?:\/\/[^\s<>"'\]]{1,2048}/gi;

/** Text document of a plain-text body (quote markers and stray HTML tags removed). Never throws. */
export function plainToTextDoc(body: string): TextDoc {
  const truncated = body.length > MAX_TEXT_CHARS;
  const source = truncated ? body.slice(0, MAX_TEXT_CHARS) : body;
  const lines: string[] = [];
  for (const rawLine of source.split(/\r\n|\r|\n/)) {
    const line = stripSimpleTags(rawLine.replace(/^(?:[ \t]*>)+/, ""))
      .replace(INVISIBLE, "")
      .replace(WHITESPACE, " ")
      .trim();
    if (line) lines.push(line);
  }
  const text = lines.join("\n");
  const links: TextLink[] = [];
  for (const m of text.matchAll(URL_IN_TEXT)) {
    if (links.length >= MAX_LINKS) break;
    const href = trimChars(m[0], ".,;:)>", "end");
    const start = m.index ?? 0;
    links.push({ href, text: href, start, end: start + href.length });
  }
  return { text, links, truncated };
}
