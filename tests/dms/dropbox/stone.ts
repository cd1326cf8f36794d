import fs from "node:fs";

// A reader of Dropbox's Stone specification (github.com/dropbox/dropbox-api-spec) for the subset
// the local Dropbox needs: namespaces and their imports, aliases, structs (with `extends`, fields,
// nullable types, defaults, and enumerated subtypes), unions (open or closed, `extends`, void and
// typed members, the catch-all `*`), primitives with their constraints (String length and
// pattern, integer bounds, Timestamp format), List and Map, and routes with their argument,
// result and error types. Doc strings, examples, attributes and annotations are skipped. Values
// are checked as Dropbox serialises them to JSON: a struct as an object (with ".tag" naming the
// subtype where the declared struct has subtypes), a union member without a value as its tag or
// `{".tag": tag}`, with a struct value as `{".tag": tag, ...fields}`, with another value as
// `{".tag": tag, tag: value}`.

interface Ref {
  kind: "ref";
  namespace: string;
  name: string;
  args: Record<string, unknown>;
  params: Type[];
  nullable: boolean;
}
type Type = Ref;

interface Field {
  name: string;
  type: Type;
  optional: boolean;
}

interface StructDef {
  kind: "struct";
  namespace: string;
  name: string;
  extends?: Type;
  fields: Field[];
  subtypes: { tag: string; type: Type }[];
}

interface UnionDef {
  kind: "union";
  namespace: string;
  name: string;
  extends?: Type;
  members: { tag: string; type: Type | null }[];
}

interface AliasDef {
  kind: "alias";
  namespace: string;
  name: string;
  type: Type;
}

type Definition = StructDef | UnionDef | AliasDef;

export interface StoneRoute {
  name: string;
  arg: Type;
  result: Type;
  error: Type;
}

const PRIMITIVES = new Set(["String", "Int32", "Int64", "UInt32", "UInt64", "Float32", "Float64", "Boolean", "Timestamp", "Bytes", "Void", "List", "Map"]);
const INTEGER_BOUNDS: Record<string, [number, number]> = {
  Int32: [-(2 ** 31), 2 ** 31 - 1],
  UInt32: [0, 2 ** 32 - 1],
  Int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  UInt64: [0, Number.MAX_SAFE_INTEGER],
};

/** A Stone string literal's value: `\\w` is the regex `\w`, `\"` a quote. */
const unquote = (literal: string) => literal.slice(1, -1).replace(/\\(.)/g, "$1");

/** Parses a type expression from `text` at `at`; the type and where it ended. */
function parseType(text: string, at: number, namespace: string): { type: Type; end: number } {
  const skip = () => {
    while (text[at] === " ") at++;
  };
  skip();
  const name = /^[A-Za-z_][\w.]*/.exec(text.slice(at))?.[0];
  if (!name) throw new Error(`no type at "${text.slice(at)}"`);
  at += name.length;
  const dot = name.lastIndexOf(".");
  const type: Type = {
    kind: "ref",
    namespace: dot < 0 ? (PRIMITIVES.has(name) ? "" : namespace) : name.slice(0, dot),
    name: dot < 0 ? name : name.slice(dot + 1),
    args: {},
    params: [],
    nullable: false,
  };
  if (text[at] === "(") {
    at++;
    for (;;) {
      skip();
      if (text[at] === ")") {
        at++;
        break;
      }
      const keyword = /^(\w+)\s*=\s*/.exec(text.slice(at));
      const literal = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(at));
      if (literal) {
        // Timestamp's one positional argument, its format.
        type.args.format = unquote(literal[0]);
        at += literal[0].length;
      } else if (keyword) {
        at += keyword[0].length;
        const value = /^("(?:[^"\\]|\\.)*"|[^,)]+)/.exec(text.slice(at))![0];
        at += value.length;
        type.args[keyword[1]!] = value.startsWith('"') ? unquote(value) : value.trim() === "true" ? true : value.trim() === "false" ? false : Number(value);
      } else {
        const inner = parseType(text, at, namespace);
        type.params.push(inner.type);
        at = inner.end;
      }
      skip();
      if (text[at] === ",") at++;
    }
  }
  if (text[at] === "?") {
    type.nullable = true;
    at++;
  }
  return { type, end: at };
}

/** The statements of a Stone file: doc strings, comments and blank lines removed, with their indentation. */
function statements(source: string): { indent: number; text: string }[] {
  const out: { indent: number; text: string }[] = [];
  let inDoc = false;
  const closes = (text: string) => /(^|[^\\])(\\\\)*"/.test(text);
  for (const line of source.split("\n")) {
    const text = line.trim();
    if (inDoc) {
      if (closes(line)) inDoc = false;
      continue;
    }
    if (!text || text.startsWith("#")) continue;
    if (text.startsWith('"')) {
      if (!closes(text.slice(1))) inDoc = true;
      continue;
    }
    out.push({ indent: line.length - line.trimStart().length, text });
  }
  return out;
}

export class Stone {
  private readonly definitions = new Map<string, Definition>();
  readonly routes = new Map<string, StoneRoute>();

  /** Reads every `.stone` file named, all of one specification. */
  constructor(files: string[]) {
    for (const file of files) this.read(fs.readFileSync(file, "utf8"));
  }

  private read(source: string): void {
    let namespace = "";
    let current: StructDef | UnionDef | null = null;
    let block: "fields" | "subtypes" | "skip" = "fields";
    // A field may define its union type in place: `type PropertyType` then an indented `union` block.
    let inline: UnionDef | null = null;
    for (const { indent, text } of statements(source)) {
      if (indent === 0) {
        current = null;
        inline = null;
        block = "fields";
        const [keyword, rest = ""] = [text.split(" ", 1)[0]!, text.slice(text.indexOf(" ") + 1)];
        if (keyword === "namespace") namespace = rest.trim();
        else if (keyword === "alias") {
          const [, name, type] = /^(\w+)\s*=\s*(.+)$/.exec(rest)!;
          this.define({ kind: "alias", namespace, name: name!, type: parseType(type!, 0, namespace).type });
        } else if (keyword === "struct" || keyword === "union" || keyword === "union_closed") {
          const [, name, base] = /^(\w+)(?:\s+extends\s+([\w.]+))?/.exec(rest)!;
          const extended = base ? parseType(base, 0, namespace).type : undefined;
          current =
            keyword === "struct"
              ? { kind: "struct", namespace, name: name!, extends: extended, fields: [], subtypes: [] }
              : { kind: "union", namespace, name: name!, extends: extended, members: [] };
          this.define(current);
        } else if (keyword === "route") {
          const [, name, version, types] = /^([\w/]+)(?::(\d+))?\s*\((.+)\)/.exec(rest)!;
          const parsed: Type[] = [];
          let at = 0;
          for (let i = 0; i < 3; i++) {
            const one = parseType(types!, at, namespace);
            parsed.push(one.type);
            at = types!.indexOf(",", one.end) + 1;
          }
          const url = `${namespace}/${name}${version && version !== "1" ? `_v${version}` : ""}`;
          this.routes.set(url, { name: url, arg: parsed[0]!, result: parsed[1]!, error: parsed[2]! });
        }
        continue;
      }
      if (!current) continue;
      if (indent === 4) {
        inline = null;
        if (text.startsWith("example ")) block = "skip";
        else if (text === "union" || text === "union_closed") block = "subtypes";
        else {
          block = "fields";
          if (text.startsWith("@")) continue;
          const [, name, star, rest] = /^(\w+)(\*)?\s*(.*)$/.exec(text)!;
          if (current.kind === "union") {
            current.members.push({ tag: name!, type: star || !rest ? null : parseType(rest, 0, namespace).type });
          } else {
            const parsed = parseType(rest!, 0, namespace);
            const defaulted = /^\s*=/.test(rest!.slice(parsed.end));
            current.fields.push({ name: name!, type: parsed.type, optional: parsed.type.nullable || defaulted });
          }
        }
      } else if (block === "fields" && current.kind === "struct" && indent === 8 && (text === "union" || text === "union_closed")) {
        const field = current.fields.at(-1)!;
        inline = { kind: "union", namespace: field.type.namespace, name: field.type.name, members: [] };
        this.define(inline);
      } else if (inline && indent === 12) {
        const [, name, rest] = /^(\w+)\*?\s*(.*)$/.exec(text)!;
        inline.members.push({ tag: name!, type: rest ? parseType(rest, 0, namespace).type : null });
      } else if (block === "subtypes" && current.kind === "struct" && !text.startsWith("@")) {
        const [, tag, type] = /^(\w+)\s+(.+)$/.exec(text)!;
        current.subtypes.push({ tag: tag!, type: parseType(type!, 0, namespace).type });
      }
    }
  }

  private define(definition: Definition): void {
    this.definitions.set(`${definition.namespace}.${definition.name}`, definition);
  }

  private lookup(type: Type): Definition {
    const found = this.definitions.get(`${type.namespace}.${type.name}`);
    if (!found) throw new Error(`Stone type ${type.namespace}.${type.name} is not defined`);
    return found;
  }

  /** An alias followed to its type, nullable when any step is. */
  private resolve(type: Type): Type {
    let out = type;
    for (let found = out.namespace ? this.lookup(out) : null; found?.kind === "alias"; found = out.namespace ? this.lookup(out) : null) {
      const alias = found;
      out = { ...alias.type, nullable: alias.type.nullable || out.nullable };
    }
    return out;
  }

  private fieldsOf(struct: StructDef): Field[] {
    const base = struct.extends ? this.fieldsOf(this.lookup(struct.extends) as StructDef) : [];
    return [...base, ...struct.fields];
  }

  private membersOf(union: UnionDef): UnionDef["members"] {
    const base = union.extends ? this.membersOf(this.lookup(union.extends) as UnionDef) : [];
    return [...base, ...union.members];
  }

  /** The struct a value of `struct` with this ".tag" is: itself, or the subtype the tag names. */
  private subtypeOf(struct: StructDef, tag: unknown): StructDef | null {
    if (tag === undefined) return struct;
    for (const subtype of struct.subtypes) {
      if (subtype.tag === tag) return this.lookup(subtype.type) as StructDef;
    }
    // A leaf declared as such may carry its own tag, as Dropbox serialises it within its parent.
    const parent = struct.extends ? (this.lookup(struct.extends) as StructDef) : null;
    return parent?.subtypes.some((subtype) => subtype.tag === tag && subtype.type.name === struct.name) ? struct : null;
  }

  /** What is wrong with `value` as a `type` ("" where nothing is). */
  check(type: Type, value: unknown, path = ""): string[] {
    const at = path || "/";
    const resolved = this.resolve(type);
    if (value === null || value === undefined) return resolved.nullable || resolved.name === "Void" ? [] : [`${at}: a value is required`];
    const { name, args } = resolved;
    if (!resolved.namespace) {
      switch (name) {
        case "Void":
          return [];
        case "Boolean":
          return typeof value === "boolean" ? [] : [`${at}: not a Boolean`];
        case "String":
        case "Bytes": {
          if (typeof value !== "string") return [`${at}: not a String`];
          const problems: string[] = [];
          if (typeof args.min_length === "number" && value.length < args.min_length) problems.push(`${at}: shorter than ${args.min_length}`);
          if (typeof args.max_length === "number" && value.length > args.max_length) problems.push(`${at}: longer than ${args.max_length}`);
          if (typeof args.pattern === "string" && !new RegExp(`^(?:${args.pattern})$`).test(value))
            problems.push(`${at}: "${value}" does not match ${args.pattern}`);
          return problems;
        }
        case "Timestamp":
          return typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value) ? [] : [`${at}: not a Timestamp (%Y-%m-%dT%H:%M:%SZ)`];
        case "Float32":
        case "Float64":
          return typeof value === "number" ? [] : [`${at}: not a number`];
        case "List": {
          if (!Array.isArray(value)) return [`${at}: not a List`];
          const problems = value.flatMap((item, index) => this.check(resolved.params[0]!, item, `${path}/${index}`));
          if (typeof args.min_items === "number" && value.length < args.min_items) problems.push(`${at}: fewer than ${args.min_items} items`);
          if (typeof args.max_items === "number" && value.length > args.max_items) problems.push(`${at}: more than ${args.max_items} items`);
          return problems;
        }
        case "Map":
          if (typeof value !== "object" || Array.isArray(value)) return [`${at}: not a Map`];
          return Object.entries(value).flatMap(([key, inner]) => this.check(resolved.params[1]!, inner, `${path}/${key}`));
        default: {
          const bounds = INTEGER_BOUNDS[name];
          if (!bounds) return [`${at}: unknown primitive ${name}`];
          const [low, high] = [
            typeof args.min_value === "number" ? args.min_value : bounds[0],
            typeof args.max_value === "number" ? args.max_value : bounds[1],
          ];
          return typeof value === "number" && Number.isInteger(value) && value >= low && value <= high ? [] : [`${at}: not a ${name} in ${low}..${high}`];
        }
      }
    }
    const definition = this.lookup(resolved);
    if (definition.kind === "struct") {
      if (typeof value !== "object" || Array.isArray(value)) return [`${at}: not a ${definition.name} object`];
      return this.checkStruct(definition, value as Record<string, unknown>, path);
    }
    if (definition.kind === "union") return this.checkUnion(definition, value, path);
    return [`${at}: unreadable type ${name}`];
  }

  private checkStruct(declared: StructDef, value: Record<string, unknown>, path: string, inlineTag?: string): string[] {
    const at = path || "/";
    const tag = inlineTag === undefined ? value[".tag"] : undefined;
    const struct = this.subtypeOf(declared, tag);
    if (!struct) return [`${at}: ".tag" ${JSON.stringify(tag)} is not a subtype of ${declared.name}`];
    if (struct === declared && declared.subtypes.length > 0 && tag === undefined) return [`${at}: ${declared.name} names its subtype in ".tag"`];
    const fields = this.fieldsOf(struct);
    const problems: string[] = [];
    for (const key of Object.keys(value)) {
      if (key === ".tag") continue;
      if (!fields.some((field) => field.name === key)) problems.push(`${at}: ${struct.name} has no field ${key}`);
    }
    for (const field of fields) {
      if (value[field.name] === undefined) {
        if (!field.optional && !this.resolve(field.type).nullable) problems.push(`${at}: ${struct.name}.${field.name} is required`);
      } else problems.push(...this.check(field.type, value[field.name], `${path}/${field.name}`));
    }
    return problems;
  }

  private checkUnion(union: UnionDef, value: unknown, path: string): string[] {
    const at = path || "/";
    const members = this.membersOf(union);
    const tag = typeof value === "string" ? value : typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>)[".tag"] : undefined;
    const member = members.find((candidate) => candidate.tag === tag);
    if (!member) return [`${at}: ${JSON.stringify(tag)} is not a member of ${union.name} (${members.map((m) => m.tag).join(", ")})`];
    const type = member.type && this.resolve(member.type);
    if (typeof value === "string") return !type || type.name === "Void" || type.nullable ? [] : [`${at}: ${union.name}.${member.tag} carries a value`];
    const record = value as Record<string, unknown>;
    if (!type || type.name === "Void") {
      const extra = Object.keys(record).filter((key) => key !== ".tag");
      return extra.length ? [`${at}: ${union.name}.${member.tag} carries no value (${extra.join(", ")})`] : [];
    }
    const definition = type.namespace ? this.lookup(type) : null;
    // A struct member's fields stand beside the tag; a struct with subtypes is nested, as other values are.
    if (definition?.kind === "struct" && !type.nullable && definition.subtypes.length === 0) {
      const { [".tag"]: _tag, ...fields } = record;
      return this.checkStruct(definition, fields, path, member.tag);
    }
    const extra = Object.keys(record).filter((key) => key !== ".tag" && key !== member.tag);
    return [
      ...extra.map((key) => `${at}: ${union.name}.${member.tag} has no field ${key}`),
      ...this.check(member.type!, record[member.tag], `${path}/${member.tag}`),
    ];
  }

  /** A named type of the specification, e.g. ("common", "PathRoot"). */
  type(namespace: string, name: string): Type {
    return { kind: "ref", namespace, name, args: {}, params: [], nullable: false };
  }
}
