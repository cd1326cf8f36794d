// Splits a raw RFC 822 message into its MIME parts in one synchronous pass.
// The message is read as a latin1 string (one character per byte), so part
// bodies are substrings and turn back into their exact bytes for decoding.
// The rules follow the mail readers the notices are usually opened with:
// delimiter lines are "--boundary" or "--boundary--" and nothing else, the line
// break before a delimiter belongs to it, and a part with no Content-Type is
// text/plain (an attachment's type comes from its file name).
import { decodeWords, mediaTypeOf, parseHeaderValue } from "./mime-words";

export interface HeaderLine {
  /** Lower-case field name ("" when the line has no colon). */
  key: string;
  /** The field as sent, folding included, one character per byte. */
  line: string;
}

export interface MimePart {
  headers: HeaderLine[];
  /** Lower-case media type, e.g. "text/html". */
  contentType: string;
  charset: string | null;
  /** "inline" or "attachment" for leaf parts. */
  disposition: string;
  filename: string | null;
  /** Lower-case Content-Transfer-Encoding. */
  encoding: string;
  flowed: boolean;
  delSp: boolean;
  /** The part's body before transfer decoding, one character per byte. */
  body: string;
  children: MimePart[];
  /** An inline message/rfc822 part read as a message of its own. */
  embedded: boolean;
}

/** Header blocks above this size are not mail (as in common mail libraries). */
export const MAX_HEADER_BYTES = 1024 * 1024;
/** Parts read per message; the rest are ignored. */
export const MAX_PARTS = 1000;
/** Nesting followed; deeper multiparts are read as having no parts. */
export const MAX_DEPTH = 500;

interface Budget {
  parts: number;
}

function isFolding(c: string | undefined): boolean {
  return c === " " || c === "\t";
}

/** Index just past the header block's blank line, and the block itself. */
function splitHead(src: string, from: number, to: number): { head: string; bodyStart: number } {
  let pos = from;
  while (pos < to) {
    const nl = src.indexOf("\n", pos);
    const lineEnd = nl < 0 || nl >= to ? to : nl;
    const empty = lineEnd === pos || (lineEnd === pos + 1 && src[pos] === "\r");
    if (empty) return { head: src.slice(from, pos), bodyStart: Math.min(to, lineEnd + 1) };
    pos = lineEnd + 1;
  }
  return { head: src.slice(from, to), bodyStart: to };
}

/** Header fields of a block, folded lines joined with CRLF; a leading mbox "From " line is skipped. */
export function headerLines(head: string): HeaderLine[] {
  let end = head.length;
  while (end > 0 && (head[end - 1] === "\n" || head[end - 1] === "\r")) end--;
  const raw = head.slice(0, end).split("\n");
  for (let i = 0; i < raw.length; i++) if (raw[i]?.endsWith("\r")) raw[i] = raw[i]?.slice(0, -1) ?? "";
  const lines: HeaderLine[] = [];
  let i = 1;
  let first = raw[0] ?? "";
  while (i < raw.length && isFolding(raw[i]?.[0])) first += `\r\n${raw[i++]}`;
  const keyOf = (line: string) => (line.includes(":") ? line.slice(0, line.indexOf(":")).trim().toLowerCase() : "");
  if (!/^(?:From|POST) /i.test(first)) lines.push({ key: keyOf(first), line: first });
  for (; i < raw.length; i++) {
    const line = raw[i] ?? "";
    const last = lines[lines.length - 1];
    if (isFolding(line[0]) && last) {
      last.line += `\r\n${line}`;
      if (!last.key) last.key = keyOf(last.line);
    } else lines.push({ key: keyOf(line), line });
  }
  return lines;
}

/** Bytes (one character per byte) read as UTF-8 when they are valid UTF-8. */
export function utf8IfValid(binary: string): string {
  // eslint-disable-next-line no-control-regex -- 7-bit text needs no decoding
  if (!/[^\x00-\x7f]/.test(binary)) return binary;
  const utf8 = Buffer.from(binary, "latin1").toString("utf8");
  return utf8.includes("\ufffd") ? binary : utf8;
}

/** A header field's value: unfolded, trimmed, UTF-8 read where valid. */
export function headerValue(line: string): string {
  const colon = line.indexOf(":");
  if (colon < 0) return "";
  return utf8IfValid(line.slice(colon + 1).replace(/(?:\r?\n|\r)[ \t]*/g, " ")).trim();
}

function firstValue(headers: HeaderLine[], key: string): string {
  const found = headers.find((h) => h.key === key);
  return found ? headerValue(found.line) : "";
}

function decodeWordsSafely(value: string): string {
  try {
    return decodeWords(value);
  } catch {
    return value;
  }
}

function withoutComments(value: string): string {
  return value.includes("(") ? value.replace(/\([^)]*\)/g, "") : value;
}

type PartDescription = Omit<MimePart, "body" | "children" | "embedded" | "headers">;

function describe(headers: HeaderLine[]): { description: PartDescription; boundary: string | null } {
  const disposition = parseHeaderValue(firstValue(headers, "content-disposition"));
  const dispositionValue = decodeWordsSafely((disposition.value || "").toLowerCase().trim());
  const typeHeader = firstValue(headers, "content-type");
  let filename: string | null = disposition.params.filename || null;
  let typeValue = typeHeader;
  if (!typeValue) {
    const extension = filename ? (filename.split(".").pop() ?? "") : "";
    typeValue = extension && filename?.includes(".") ? mediaTypeOf(extension) : "";
    if (!typeValue) typeValue = dispositionValue === "attachment" ? "application/octet-stream" : "text/plain";
  }
  const type = parseHeaderValue(typeValue);
  filename ??= type.params.name || null;
  const format = (type.params.format ?? "").toLowerCase().trim();
  const description: PartDescription = {
    contentType: (type.value || "").toLowerCase().trim(),
    charset: type.params.charset || null,
    disposition: dispositionValue,
    filename: filename === null ? null : decodeWordsSafely(filename),
    encoding: withoutComments(firstValue(headers, "content-transfer-encoding")).toLowerCase().trim(),
    flowed: format === "flowed",
    delSp: format === "flowed" && (type.params.delsp ?? "").toLowerCase().trim() === "yes",
  };
  return { description, boundary: type.params.boundary || null };
}

/** Whether src[from, lineEnd) is "--boundary" (1) or "--boundary--" (2). */
function delimiter(src: string, from: number, lineEnd: number, marker: string): 0 | 1 | 2 {
  if (!src.startsWith(marker, from)) return 0;
  let end = lineEnd;
  if (src[end - 1] === "\r") end--;
  const rest = end - from - marker.length;
  // "--boundary" needs a line break after it; "--boundary--" may end the message.
  if (rest === 0) return lineEnd < src.length ? 1 : 0;
  if (rest === 2 && src[from + marker.length] === "-" && src[from + marker.length + 1] === "-") return 2;
  return 0;
}

/** Body ranges of a multipart's children: the line break before a delimiter belongs to it. */
function childRanges(src: string, from: number, to: number, boundary: string): [number, number][] {
  const marker = `--${boundary}`;
  const ranges: [number, number][] = [];
  let partStart = -1;
  let pos = src.indexOf(marker, from);
  while (pos >= 0 && pos < to) {
    const atLineStart = pos === from || src[pos - 1] === "\n";
    const nl = src.indexOf("\n", pos);
    const lineEnd = nl < 0 || nl >= to ? to : nl;
    const kind = atLineStart ? delimiter(src, pos, lineEnd, marker) : 0;
    if (kind) {
      if (partStart >= 0) {
        let end = pos;
        if (end > partStart && src[end - 1] === "\n") end--;
        if (end > partStart && src[end - 1] === "\r") end--;
        ranges.push([partStart, end]);
      }
      if (kind === 2) return ranges;
      partStart = Math.min(to, lineEnd + 1);
    }
    pos = src.indexOf(marker, lineEnd);
  }
  if (partStart >= 0) ranges.push([partStart, to]);
  return ranges;
}

function readPart(src: string, from: number, to: number, depth: number, budget: Budget): MimePart {
  budget.parts++;
  const { head, bodyStart } = splitHead(src, from, to);
  if (head.length > MAX_HEADER_BYTES) throw new Error("header block larger than 1 MB");
  const headers = headerLines(head);
  const { description, boundary } = describe(headers);
  const part: MimePart = { headers, ...description, body: "", children: [], embedded: false };
  if (part.contentType.startsWith("multipart/")) {
    if (!boundary || depth >= MAX_DEPTH) return part;
    for (const [start, end] of childRanges(src, bodyStart, to, boundary)) {
      if (budget.parts >= MAX_PARTS) break;
      part.children.push(readPart(src, start, end, depth + 1, budget));
    }
    return part;
  }
  const disposition = part.disposition;
  if (disposition && disposition !== "attachment" && disposition !== "inline") part.disposition = "attachment";
  else if (!disposition) part.disposition = TEXT_TYPES.has(part.contentType) ? "inline" : "attachment";
  // An inline message/rfc822 part that is not transfer-encoded is read as part of this message.
  if (part.contentType === "message/rfc822" && disposition === "inline" && ["", "7bit", "8bit", "binary"].includes(part.encoding) && depth < MAX_DEPTH) {
    part.embedded = true;
    part.children.push(readPart(src, bodyStart, to, depth + 1, budget));
    return part;
  }
  part.body = src.slice(bodyStart, to);
  return part;
}

/** Types whose inline parts make up the message's text. */
export const TEXT_TYPES = new Set(["text/plain", "text/html", "message/delivery-status"]);

/** Whether the message's lines end in a bare CR (old Mac mail, some gateways): its first line does. */
function bareCrLines(src: string): boolean {
  const cr = src.indexOf("\r");
  if (cr < 0 || src[cr + 1] === "\n") return false;
  const lf = src.indexOf("\n");
  return lf < 0 || cr < lf;
}

/** The MIME tree of a raw message. Throws on a header block too large to be mail. */
export function readMimeTree(raw: Buffer): MimePart {
  let src = raw.toString("latin1");
  if (bareCrLines(src)) src = src.replace(/\r(?!\n)/g, "\r\n");
  return readPart(src, 0, src.length, 0, { parts: 0 });
}

// Value of each hex digit by character code, -1 for anything else.
const HEX = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX["0123456789abcdef".charCodeAt(i)] = i;
  HEX["0123456789ABCDEF".charCodeAt(i)] = i;
}
const hexValue = (c: number) => (c < 128 ? (HEX[c] ?? -1) : -1);

/** Quoted-printable as common mail libraries read it: trailing blanks dropped, soft breaks removed, bad escapes kept. */
function decodeQuotedPrintable(body: string): Buffer {
  // Trailing blanks of a line, then "=" at a line's end (a soft break; lines may end in a bare CR), in one pass.
  const text = body.replace(/[\t ]+(?=[\r\n]|$)|=[\t ]*(?:\r?\n|\r|$)/g, "");
  const out = Buffer.allocUnsafe(text.length);
  let n = 0;
  let runStart = 0;
  for (let eq = text.indexOf("="); eq >= 0; eq = text.indexOf("=", eq + 1)) {
    const high = hexValue(text.charCodeAt(eq + 1));
    const low = high < 0 ? -1 : hexValue(text.charCodeAt(eq + 2));
    if (low < 0) continue;
    n += out.write(text.slice(runStart, eq), n, "latin1");
    out[n++] = high * 16 + low;
    eq += 2;
    runStart = eq + 1;
  }
  n += out.write(text.slice(runStart), n, "latin1");
  return out.subarray(0, n);
}

/** A leaf part's bytes after its Content-Transfer-Encoding. */
export function decodedBody(part: MimePart): Buffer {
  if (part.encoding === "base64") return Buffer.from(part.body.replace(/[^A-Za-z0-9+/]/g, ""), "base64");
  if (part.encoding === "quoted-printable") return decodeQuotedPrintable(part.body);
  return Buffer.from(part.body, "latin1");
}

export { firstValue, decodeWordsSafely };
