// Header-level MIME decoding the notice parser needs: RFC 2047 encoded words,
// structured header values with RFC 2231 parameters, format=flowed text, and a
// file extension's media type. They follow the rules of the mail libraries the
// messages were checked with, and decode charsets with the runtime's
// TextDecoder, so reading a notice loads no charset tables.

import { boundedCache } from "../../app/common/bounded-cache";
import { fixC1Controls } from "./charset";

const UTF8_LABELS = new Set(["", "ascii", "usascii", "utf8"]);
// Keyed by the charset a message declares: any text, so the kept ones are bounded.
const decoders = boundedCache<TextDecoder | null>({ max: 100 });

/** The decoder for a declared charset; null for one this runtime does not know. */
function decoderFor(charset: string): TextDecoder | null {
  return decoders.keep(charset, () => {
    // Spellings such as "win1252" or "iso8859_1" that the Encoding standard does not list.
    const usual = charset.replace(/^win(?:dows)?[-_]?(\d+)$/, "windows-$1").replace(/^(?:latin|iso[-_]?8859)[-_]?(\d+)$/, "iso-8859-$1");
    for (const label of new Set([charset, usual])) {
      try {
        return new TextDecoder(label);
      } catch {
        // Not a label this runtime knows.
      }
    }
    return null;
  });
}

/** Bytes in the declared charset; UTF-8 for ASCII, none declared, or a charset not known. */
export function decodeCharset(bytes: Uint8Array, charset: string | null): string {
  const label = (charset ?? "").toLowerCase().trim();
  if (UTF8_LABELS.has(label.replace(/[^a-z0-9]+/g, ""))) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  const decoder = decoderFor(label);
  if (!decoder) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  // Node reads windows-1252 (and the labels the Encoding standard maps to it) as ISO-8859-1.
  return decoder.encoding === "windows-1252" ? fixC1Controls(decoder.decode(bytes)) : decoder.decode(bytes);
}

const isHexDigit = (c: number | undefined) => c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));

/** The bytes of a "Q" encoded word's text. */
function qBytes(text: string): Buffer {
  const bytes = Buffer.from(text.replace(/=\s+([0-9a-fA-F])/g, "=$1").replace(/[_\s]/g, " "));
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i] ?? 0;
    if (c === 0x3d && i <= bytes.length - 3 && isHexDigit(bytes[i + 1]) && isHexDigit(bytes[i + 2])) {
      out[n++] = parseInt(String.fromCharCode(bytes[i + 1] ?? 0, bytes[i + 2] ?? 0), 16);
      i += 2;
    } else out[n++] = c;
  }
  return out.subarray(0, n);
}

/** One encoded word's text as bytes. */
function wordBytes(encoding: string, text: string): Buffer {
  if (encoding === "Q" || encoding === "q") return qBytes(text);
  // Words joined from several padded segments are decoded segment by segment.
  return Buffer.concat(text.split(/(?<==)(?=[^=])/).map((segment) => Buffer.from(segment.replace(/[^A-Za-z0-9+/=]/g, ""), "base64")));
}

const charsetOf = (declared: string) => declared.split("*")[0]?.toLowerCase() ?? "";

const ENCODED_WORDS = /=\?([\w_\-*]+)\?([QqBb])\?([^?]*)\?=(?:\s*=\?([\w_\-*]+)\?([QqBb])\?([^?]*)\?=)*/g;
const ENCODED_WORD = /=\?([\w_\-*]+)\?([QqBb])\?([^?]*)\?=/g;

/**
 * RFC 2047 encoded words decoded. Blanks between two encoded words are dropped, and
 * neighbouring words in the same charset are decoded together, so a character
 * split between them comes out whole.
 */
export function decodeWords(value: string): string {
  if (!value.includes("=?")) return value;
  return value.replace(ENCODED_WORDS, (run) => {
    let out = "";
    let charset: string | null = null;
    let pending: Buffer[] = [];
    const flush = () => {
      if (charset !== null && pending.length) out += decodeCharset(Buffer.concat(pending), charset);
      pending = [];
    };
    for (const [, declared = "", encoding = "", text = ""] of run.matchAll(ENCODED_WORD)) {
      const wordCharset = charsetOf(declared);
      if (wordCharset !== charset) flush();
      charset = wordCharset;
      pending.push(wordBytes(encoding, text));
    }
    flush();
    return out;
  });
}

export interface StructuredHeader {
  /** The value before the first ";" ("" when there is none). */
  value: string;
  /** Parameters by lower-case name. */
  params: Record<string, string>;
}

const isBlank = (c: string) => c === " " || c === "\t";

/** Splits `value; name=value; name="quoted value"`; RFC 2231 continuations and charsets are joined and decoded. */
export function parseHeaderValue(header: string): StructuredHeader {
  const result: StructuredHeader = { value: "", params: Object.create(null) as Record<string, string> };
  let key: string | null = null;
  let inKey = false;
  let collected = "";
  // Blanks outside quotes count only when something follows them.
  let end = 0;
  let quote = false;
  let escaped = false;
  const commit = () => {
    const text = collected.slice(0, end);
    if (inKey) {
      if (text) result.params[text.toLowerCase()] = "";
    } else if (key === null) result.value = text;
    else result.params[key] = text;
    collected = "";
    end = 0;
  };
  for (const c of header) {
    if (inKey) {
      if (c === "=") {
        key = collected.slice(0, end).toLowerCase();
        collected = "";
        end = 0;
        inKey = false;
      } else if (c === ";") commit();
      else if (isBlank(c)) {
        if (collected) collected += c;
      } else {
        collected += c;
        end = collected.length;
      }
      continue;
    }
    if (escaped) {
      collected += c;
      end = collected.length;
      escaped = false;
    } else if (c === "\\") escaped = true;
    else if (c === '"') quote = !quote;
    else if (!quote && c === ";") {
      commit();
      inKey = true;
    } else if (!quote && isBlank(c)) {
      if (collected) collected += c;
    } else {
      collected += c;
      end = collected.length;
    }
  }
  commit();
  joinContinuations(result.params);
  return result;
}

/** RFC 2231: name*0, name*1… joined in order; name*= / name*0*= carry charset'language'%XX bytes. */
function joinContinuations(params: Record<string, string>): void {
  const continued = new Map<string, { charset: string | null; parts: { nr: number; value: string }[] }>();
  for (const name of Object.keys(params)) {
    const match = /\*((\d+)\*?)?$/.exec(name);
    if (!match) continue;
    const base = name.slice(0, match.index);
    const nr = Number(match[2]) || 0;
    let value = params[name] ?? "";
    delete params[name];
    const entry = continued.get(base) ?? { charset: null, parts: [] };
    continued.set(base, entry);
    const extended = nr === 0 && name.endsWith("*") ? /^([^']*)'[^']*'(.*)$/.exec(value) : null;
    if (extended) {
      entry.charset = extended[1] || "utf-8";
      value = extended[2] ?? "";
    }
    entry.parts.push({ nr, value });
  }
  for (const [name, { charset, parts }] of continued) {
    const value = parts
      .sort((a, b) => a.nr - b.nr)
      .map((p) => p.value)
      .join("");
    params[name] = charset === null ? decodeWords(value) : decodeCharset(percentBytes(value), charset);
  }
}

function percentBytes(value: string): Buffer {
  const bytes = Buffer.from(value, "utf8");
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i] ?? 0;
    if (c === 0x25 && isHexDigit(bytes[i + 1]) && isHexDigit(bytes[i + 2])) {
      out[n++] = parseInt(String.fromCharCode(bytes[i + 1] ?? 0, bytes[i + 2] ?? 0), 16);
      i += 2;
    } else out[n++] = c;
  }
  return out.subarray(0, n);
}

/** format=flowed text (RFC 3676) with its soft line breaks joined and space-stuffing removed. */
export function decodeFlowed(text: string, delSp: boolean): string {
  const paragraphs: string[] = [];
  let parts: string[] | null = null;
  let length = 0;
  const push = (part: string) => {
    if (part && parts) {
      parts.push(part);
      length += part.length;
    }
  };
  for (const line of text.split(/\r?\n/)) {
    const last = parts?.length ? (parts[parts.length - 1] ?? "") : "";
    // A line ending in a space continues on the next, except the signature separator "-- ".
    const soft = last.endsWith(" ") && !(length === 3 && parts?.join("") === "-- ");
    if (soft && parts) {
      if (delSp) {
        parts.pop();
        length -= last.length;
        push(last.slice(0, -1));
      }
      push(line);
    } else {
      if (parts !== null) paragraphs.push(parts.join(""));
      parts = [];
      length = 0;
      push(line);
    }
  }
  if (parts !== null && length) paragraphs.push(parts.join(""));
  return paragraphs.join("\n").replace(/^ /gm, "");
}

// The types an attachment sent as application/octet-stream is told apart by.
const TYPES_BY_EXTENSION: Record<string, string> = {
  ics: "text/calendar",
  ifb: "text/calendar",
  vcs: "text/x-vcalendar",
  eml: "message/rfc822",
  htm: "text/html",
  html: "text/html",
  txt: "text/plain",
  pdf: "application/pdf",
};

/** Media type of a file extension; application/octet-stream when unknown. */
export function mediaTypeOf(extension: string): string {
  const ext = extension.toLowerCase().replace(/\s/g, "").replace(/^\./, "").split(".").pop() ?? "";
  return TYPES_BY_EXTENSION[ext] ?? "application/octet-stream";
}
