// Notices are "Label: value" layouts (table rows in HTML, lines in plain
// text). After conversion to a text document every label starts a line, so a
// value runs from its label to the next label or to a section heading.
import type { TextDoc, TextLink } from "./text-doc";

export interface LabelHit {
  /** Canonical label name, as given in the list passed to scanLabels. */
  label: string;
  /** Offset of the line holding the label. */
  start: number;
  /** Offset just after "Label:". */
  valueStart: number;
  /** Offset where the value ends (next label, or a later limit set by the caller). */
  valueEnd: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Label lines read per text; a real notice has a handful per docket. */
const MAX_LABELS = 20_000;

const labelPatterns = new Map<string, { re: RegExp; canonical: Map<string, string> }>();

function labelPattern(names: readonly string[]): { re: RegExp; canonical: Map<string, string> } {
  const key = names.join("\u0000");
  let pattern = labelPatterns.get(key);
  if (!pattern) {
    const sorted = [...names].sort((a, b) => b.length - a.length);
    pattern = {
      re: new RegExp(`(^|\\n)[ \\t]{0,20}(${sorted.map(escapeRegExp).join("|")})[ \\t]{0,20}:`, "gi"),
      canonical: new Map(names.map((n) => [n.toLowerCase(), n])),
    };
    labelPatterns.set(key, pattern);
  }
  return pattern;
}

/** Labels that start a line, in document order. `names` are matched case-insensitively. */
export function scanLabels(text: string, names: readonly string[]): LabelHit[] {
  const { re, canonical } = labelPattern(names);
  const hits: LabelHit[] = [];
  for (const m of text.matchAll(re)) {
    if (hits.length >= MAX_LABELS) break;
    const start = (m.index ?? 0) + (m[1] ?? "").length;
    hits.push({
      label: canonical.get((m[2] ?? "").toLowerCase()) ?? m[2] ?? "",
      start,
      valueStart: (m.index ?? 0) + m[0].length,
      valueEnd: text.length,
    });
  }
  for (let i = 0; i < hits.length; i++) {
    const hit = hits[i];
    const next = hits[i + 1];
    if (hit && next) hit.valueEnd = next.start;
  }
  return hits;
}

// Section headings that end a docket text or a recipient list. They start a
// line, possibly after the docket number ("1:20-cv-00572-WS Notice has been
// electronically mailed to:").
const SECTION_PHRASE =
  /Notice (?:has been|will be|will not be|was|will) (?:electronically mailed|delivered|sent|stored|served|mailed)|Notice sent via|The following document\(s\) (?:are|is) associated|These participants in a related case/gi;

// What may precede a heading on its line: nothing, or a docket number (with
// its district code in multidistrict notices: "CAN/3:20-cv-01234").
const HEADING_PREFIX = /^(?:[\w:./()-]{1,40}\s{0,3}){0,3}$/;

export interface SectionHeading {
  start: number;
  end: number;
  line: string;
}

/** Section headings (see SECTION_PHRASE) at or after `from`, each near the start of its line. */
export function sectionHeadings(text: string, from = 0): SectionHeading[] {
  const out: SectionHeading[] = [];
  SECTION_PHRASE.lastIndex = from;
  for (let m = SECTION_PHRASE.exec(text); m; m = SECTION_PHRASE.exec(text)) {
    const at = m.index;
    const lineStart = text.lastIndexOf("\n", at - 1) + 1;
    let lineEnd = text.indexOf("\n", at);
    if (lineEnd < 0) lineEnd = text.length;
    if (at - lineStart <= 80 && HEADING_PREFIX.test(text.slice(lineStart, at)))
      out.push({ start: lineStart, end: lineEnd, line: text.slice(lineStart, lineEnd) });
    SECTION_PHRASE.lastIndex = Math.max(lineEnd, at + 1);
  }
  return out;
}

/** First section heading after `from`, or `fallback`. */
export function nextSectionStart(headings: readonly SectionHeading[], from: number, fallback: number): number {
  for (const h of headings) if (h.start >= from) return Math.min(h.start, fallback);
  return fallback;
}

/** Links whose text starts inside [start, end). */
export function linksIn(doc: TextDoc, start: number, end: number): TextLink[] {
  return doc.links.filter((l) => l.start >= start && l.start < end);
}
