import Handlebars from "handlebars";
import sanitizeFilename from "sanitize-filename";
import dayjs from "dayjs";
import customParseFormat from "dayjs/plugin/customParseFormat.js";
import { boundedCache } from "../../app/common/bounded-cache";
import { keptResults } from "../../app/common/kept-results";
import { message } from "../lib/messages";

dayjs.extend(customParseFormat);

/**
 * Storage policy templates: `document_path` (folders, separated by `/`) and `document_name`
 * (file name without extension), rendered with Handlebars over the notice's case data and
 * reduced to names every file system and DMS accepts.
 */

export const DEFAULT_DOCUMENT_PATH = "{{client.name}}/{{matter.name}}/{{case.case_number}}";
// The notice itself has no document: it is filed as "<date> Notice".
export const DEFAULT_DOCUMENT_NAME = "{{envelope.date}} {{#if document}}{{document.name}}{{else}}Notice{{/if}}";
export const FALLBACK_NAME = "untitled";
/** Per segment, in characters (what users see) and UTF-8 bytes (what Linux file systems count, 255 max). */
export const MAX_SEGMENT_CHARS = 120;
export const MAX_SEGMENT_BYTES = 200;

type Text = string | null | undefined;
type Entity = { name: Text; unique_key?: Text; reference_id?: Text };

export interface StorageTemplateData {
  firm: { name: Text };
  client: Entity | null;
  matter: (Entity & { description?: Text }) | null;
  case: Entity & { case_number: Text; caption?: Text; description?: Text };
  jurisdiction: { name: Text } | null;
  envelope: {
    /** Filing date; ISO (`2024-03-05`, with or without a time) or US (`3/5/2024`); rendered YYYY-MM-DD. */
    date: Text;
    name?: Text;
    court_envelope_id?: Text;
    filed_by?: Text;
  };
  /** Absent when the notice itself is stored. */
  document?: { name: Text; number: number | string | null | undefined; date?: Text } | null;
}

/** The fields a template may name; anything else is a typo in the policy and an error. */
const TEMPLATE_FIELDS: Record<keyof StorageTemplateData, readonly string[]> = {
  firm: ["name"],
  client: ["name", "unique_key", "reference_id"],
  matter: ["name", "unique_key", "reference_id", "description"],
  case: ["name", "case_number", "unique_key", "reference_id", "caption", "description"],
  jurisdiction: ["name"],
  envelope: ["date", "name", "court_envelope_id", "filed_by"],
  document: ["name", "number", "date"],
};

export type StorageTemplateField = "document_path" | "document_name" | "document_properties";

export class StorageTemplateError extends Error {
  constructor(
    readonly field: StorageTemplateField,
    reason: string,
  ) {
    super(message("filing:templateFailed", { field: message(`filing:templateField.${field}`), message: reason }));
    this.name = "StorageTemplateError";
  }
}

// An isolated environment: helpers registered here never leak into other Handlebars users.
const handlebars = Handlebars.create();
for (const name of ["each", "with", "lookup", "log", "blockHelperMissing", "helperMissing"]) handlebars.unregisterHelper(name);

const HELPERS: Record<string, (...args: unknown[]) => string> = {
  /** `{{date envelope.date "YYYYMMDD"}}`: reformat a date; empty when it is not one. */
  date: (value, format) => {
    const iso = isoDate(asText(value));
    return iso ? dayjs(iso, "YYYY-MM-DD", true).format(typeof format === "string" ? format : "YYYY-MM-DD") : "";
  },
  upper: (value) => asText(value).toUpperCase(),
  lower: (value) => asText(value).toLowerCase(),
  /** `{{default matter.name "No matter"}}`: the first non-empty value. */
  default: (...args) =>
    args
      .slice(0, -1)
      .map(asText)
      .find((text) => text.trim() !== "") ?? "",
};
for (const [name, helper] of Object.entries(HELPERS)) handlebars.registerHelper(name, helper);
const BLOCK_HELPERS = new Set(["if", "unless"]);
const KNOWN_HELPERS = new Set([...BLOCK_HELPERS, ...Object.keys(HELPERS)]);

type AstNode = hbs.AST.Node & Record<string, unknown>;

/** Walks the parsed template and refuses what a path template has no use for: partials, unknown helpers and fields. */
function checkAst(program: hbs.AST.Program, fail: (message: string, node: hbs.AST.Node) => never): void {
  const checkPath = (path: hbs.AST.PathExpression, asValue: "output" | "param") => {
    if (path.data || path.depth > 0 || path.parts.length === 0) fail(`"${path.original}" is not allowed; use fields such as case.case_number`, path);
    const [root, field, ...rest] = path.parts as [string, string | undefined, ...string[]];
    if (!Object.hasOwn(TEMPLATE_FIELDS, root)) fail(`unknown field "${path.original}"`, path);
    const fields = TEMPLATE_FIELDS[root as keyof StorageTemplateData];
    if (field === undefined) {
      if (asValue === "output") fail(`"${path.original}" is an object; name one of its fields (${fields.map((f) => `${root}.${f}`).join(", ")})`, path);
      return;
    }
    if (!fields.includes(field) || rest.length > 0) fail(`unknown field "${path.original}"; ${root} has ${fields.map((f) => `${root}.${f}`).join(", ")}`, path);
  };
  const checkExpression = (node: AstNode) => {
    switch (node.type) {
      case "PathExpression":
        return checkPath(node as unknown as hbs.AST.PathExpression, "param");
      case "SubExpression":
        return checkCall(node as unknown as hbs.AST.SubExpression, false);
      case "StringLiteral":
      case "NumberLiteral":
      case "BooleanLiteral":
      case "UndefinedLiteral":
      case "NullLiteral":
        return;
      default:
        fail(`unexpected ${node.type}`, node);
    }
  };
  const checkCall = (node: { path: hbs.AST.PathExpression | hbs.AST.Literal; params: hbs.AST.Expression[]; hash?: hbs.AST.Hash }, block: boolean) => {
    const path = node.path as AstNode;
    if (path.type !== "PathExpression") fail("a literal cannot be used as a field or helper", path);
    const pathExpression = path as unknown as hbs.AST.PathExpression;
    const name = pathExpression.parts.length === 1 && !pathExpression.data && pathExpression.depth === 0 ? pathExpression.parts[0]! : null;
    const hasArguments = node.params.length > 0 || (node.hash?.pairs.length ?? 0) > 0;
    if (block) {
      if (!name || !BLOCK_HELPERS.has(name)) fail(`"{{#${pathExpression.original}}}" is not allowed; blocks may use ${[...BLOCK_HELPERS].join(", ")}`, path);
    } else if (name && KNOWN_HELPERS.has(name)) {
      if (BLOCK_HELPERS.has(name)) fail(`"${name}" needs a block: {{#${name} …}}…{{/${name}}}`, path);
    } else if (hasArguments) {
      fail(`unknown helper "${pathExpression.original}"; available: ${Object.keys(HELPERS).join(", ")}`, path);
    } else {
      checkPath(pathExpression, "output");
    }
    for (const param of node.params) checkExpression(param as AstNode);
    for (const pair of node.hash?.pairs ?? []) checkExpression(pair.value as AstNode);
  };
  const checkProgram = (body: hbs.AST.Program | null | undefined) => {
    for (const statement of body?.body ?? []) {
      const node = statement as AstNode;
      switch (node.type) {
        case "ContentStatement":
        case "CommentStatement":
          break;
        case "MustacheStatement":
          checkCall(node as unknown as hbs.AST.MustacheStatement, false);
          break;
        case "BlockStatement": {
          const block = node as unknown as hbs.AST.BlockStatement;
          checkCall(block, true);
          checkProgram(block.program);
          checkProgram(block.inverse);
          break;
        }
        case "PartialStatement":
        case "PartialBlockStatement":
          fail("partials ({{> …}}) are not allowed", node);
          break;
        default:
          fail(
            `${String(node.type)
              .replace(/Statement$/, "")
              .toLowerCase()} is not allowed`,
            node,
          );
      }
    }
  };
  checkProgram(program);
}

type Compiled = (data: unknown) => string;
const cache = boundedCache<Compiled>({ max: 500 });

function compile(template: string, field: StorageTemplateField): Compiled {
  const key = `${field}\u0000${template}`;
  const cached = cache.get(key);
  if (cached) return cached;
  let program: hbs.AST.Program;
  try {
    program = handlebars.parse(template);
  } catch (error) {
    throw new StorageTemplateError(field, (error as Error).message);
  }
  checkAst(program, (message, node) => {
    const line = node.loc?.start ? ` (line ${node.loc.start.line}, column ${node.loc.start.column + 1})` : "";
    throw new StorageTemplateError(field, `${message}${line}`);
  });
  let delegate: HandlebarsTemplateDelegate;
  try {
    delegate = handlebars.compile(template, {
      noEscape: true,
      knownHelpersOnly: true,
      knownHelpers: { each: false, with: false, lookup: false, log: false, ...Object.fromEntries(Object.keys(HELPERS).map((name) => [name, true])) },
      data: false,
    });
  } catch (error) {
    throw new StorageTemplateError(field, (error as Error).message);
  }
  const compiled: Compiled = (data) => {
    try {
      return delegate(data);
    } catch (error) {
      throw new StorageTemplateError(field, (error as Error).message);
    }
  };
  cache.set(key, compiled);
  return compiled;
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return "";
}

// Strict parsing with formats builds its patterns on every call; filings repeat a few dates.
const keptIsoDates = keptResults<string | null>(1_000);

/** `YYYY-MM-DD` from the date forms the notices carry; null when it is not a date. */
export function isoDate(text: Text): string | null {
  const value = (text ?? "").trim();
  if (!value) return null;
  return keptIsoDates(value, () => {
    const iso = /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/.exec(value);
    if (iso) return dayjs(iso[1], "YYYY-MM-DD", true).isValid() ? iso[1]! : null;
    const us = dayjs(value, ["M/D/YYYY", "M/D/YY", "MM/DD/YYYY"], true);
    return us.isValid() ? us.format("YYYY-MM-DD") : null;
  });
}

/** Data values never add folders: a slash in a client name is part of the name, not a separator. */
function valueText(value: unknown): string {
  return asText(value).replace(/[/\\]/g, "-");
}

function view(data: StorageTemplateData): Record<string, Record<string, string> | null> {
  const result: Record<string, Record<string, string> | null> = {};
  for (const [root, fields] of Object.entries(TEMPLATE_FIELDS)) {
    const source = (data as unknown as Record<string, Record<string, unknown> | null | undefined>)[root];
    if (!source) {
      result[root] = null;
      continue;
    }
    const object: Record<string, string> = {};
    for (const field of fields) object[field] = valueText(source[field]);
    result[root] = object;
  }
  if (result.envelope) result.envelope.date = isoDate(data.envelope.date) ?? "";
  if (result.document && data.document?.date !== undefined) result.document.date = isoDate(data.document.date) ?? "";
  return result;
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)\s*(\..*)?$/i;
// C0/C1 controls plus invisible marks (joiners stay: scripts and emoji need them) and direction marks that can disguise an extension ("evil\u202Efdp.exe").
const INVISIBLE = /[\p{Cc}\u200B\u200E\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/gu;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function trimEnds(text: string): string {
  // Leading dots make hidden files (and "..x" reads like a parent); trailing dots and spaces Windows drops.
  return text.replace(/^[\s.]+/u, "").replace(/[\s.]+$/u, "");
}

function escapeReserved(text: string): string {
  return WINDOWS_RESERVED.test(text) ? trimEnds(truncate(`_${text}`)) : text;
}

function truncate(text: string): string {
  if (text.length <= MAX_SEGMENT_CHARS && Buffer.byteLength(text) <= MAX_SEGMENT_BYTES) return text;
  let result = "";
  let chars = 0;
  let bytes = 0;
  for (const { segment } of graphemes.segment(text)) {
    const segmentChars = [...segment].length;
    const segmentBytes = Buffer.byteLength(segment);
    if (chars + segmentChars > MAX_SEGMENT_CHARS || bytes + segmentBytes > MAX_SEGMENT_BYTES) break;
    result += segment;
    chars += segmentChars;
    bytes += segmentBytes;
  }
  return result;
}

/**
 * One folder or file name, safe on Linux, macOS, Windows and the DMSs: no separators, no `.`/`..`,
 * no drive letters (`:` goes), no reserved device names, no controls, length-capped.
 * Returns "" when nothing is left; callers drop or replace it. Idempotent.
 */
export function sanitizeSegment(input: string): string {
  let text = input.normalize("NFC").replace(LONE_SURROGATE, "").replace(/\s/gu, " ").replace(INVISIBLE, "").replace(/ {2,}/g, " ");
  // Reserved names get a prefix before sanitize-filename, which would replace the whole name.
  text = escapeReserved(trimEnds(text));
  // Illegal characters become "_" so "1:23-cv-4" stays readable as "1_23-cv-4".
  text = trimEnds(truncate(trimEnds(sanitizeFilename(text, { replacement: "_" }))));
  return escapeReserved(text);
}

/** Splits a rendered path on `/` (and `\`, which Windows users type), sanitising and dropping empty segments. */
export function sanitizeFolderPath(rendered: string): string[] {
  return rendered
    .split(/[/\\]/)
    .map(sanitizeSegment)
    .filter((segment) => segment !== "");
}

/** A file name (without extension): one segment, never empty. */
export function sanitizeFileName(rendered: string): string {
  return sanitizeSegment(rendered.replace(/[/\\]/g, "-")) || FALLBACK_NAME;
}

function templateOrDefault(template: string | null | undefined, fallback: string): string {
  return template && template.trim() !== "" ? template : fallback;
}

/** Parses and checks a template without data, for the policy form. Throws StorageTemplateError. */
export function validateStorageTemplate(template: string, field: StorageTemplateField): void {
  compile(normaliseTemplate(template, field), field);
}

// In a path template a backslash is a folder separator typed the Windows way, not Handlebars' `\{{` escape.
function normaliseTemplate(template: string, field: StorageTemplateField): string {
  return field === "document_path" ? template.replace(/\\/g, "/") : template;
}

/** The folder segments for `document_path` (the default when the policy leaves it empty); never empty. */
export function renderDocumentPath(template: string | null | undefined, data: StorageTemplateData): string[] {
  const source = normaliseTemplate(templateOrDefault(template, DEFAULT_DOCUMENT_PATH), "document_path");
  const segments = sanitizeFolderPath(compile(source, "document_path")(view(data)));
  return segments.length > 0 ? segments : [FALLBACK_NAME];
}

/** The file name (without extension) for `document_name` (the default when the policy leaves it empty). */
export function renderDocumentName(template: string | null | undefined, data: StorageTemplateData): string {
  const source = templateOrDefault(template, DEFAULT_DOCUMENT_NAME);
  return sanitizeFileName(compile(source, "document_name")(view(data)));
}

/**
 * The policy's document properties with their values rendered for this filing (a property
 * `Matter = {{matter.unique_key}}` becomes the matter's number). Values are text, not paths:
 * nothing is sanitised beyond trimming.
 */
export function renderDocumentProperties(properties: Record<string, string>, data: StorageTemplateData): Record<string, string> {
  const context = view(data);
  return Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, compile(value, "document_properties")(context).trim()]));
}

export function renderStorageLocation(
  policy: { document_path: string | null | undefined; document_name: string | null | undefined },
  data: StorageTemplateData,
): { folder: string[]; name: string } {
  return { folder: renderDocumentPath(policy.document_path, data), name: renderDocumentName(policy.document_name, data) };
}
