import fs from "node:fs";
import { DOMParser } from "@xmldom/xmldom";

// Checks a Graph JSON body (a request's or an answer's) against the entity and complex types of
// Microsoft's published CSDL metadata (a subset, tests/fixtures/msgraph-csdl): every property
// must be declared on the type or a base type (open types take any), with a value of the
// declared kind, recursively through complex types and the navigation properties kept. OData
// annotations ("@odata.etag", "x@odata.type") are always allowed.

const METADATA = new URL("../../fixtures/msgraph-csdl/graph-csdl-subset.xml", import.meta.url);

interface TypeDef {
  base?: string;
  open: boolean;
  properties: Map<string, { type: string; nullable: boolean }>;
}

/** What is read of an element of the metadata. */
interface Element {
  getAttribute(name: string): string | null;
  getElementsByTagName(name: string): ArrayLike<unknown>;
}

const local = (type: string) => type.replace(/^(graph|microsoft\.graph)\./, "");

export class GraphCsdl {
  private readonly types = new Map<string, TypeDef>();
  private readonly enums = new Set<string>();

  constructor() {
    const doc = new DOMParser().parseFromString(fs.readFileSync(METADATA, "utf8"), "text/xml") as unknown as Element;
    for (const kind of ["EntityType", "ComplexType"]) {
      const nodes = doc.getElementsByTagName(kind);
      for (let i = 0; i < nodes.length; i++) {
        const node = nodes[i] as Element;
        const properties = new Map<string, { type: string; nullable: boolean }>();
        for (const child of ["Property", "NavigationProperty"]) {
          const props = node.getElementsByTagName(child);
          for (let j = 0; j < props.length; j++) {
            const prop = props[j] as Element;
            properties.set(prop.getAttribute("Name") ?? "", { type: prop.getAttribute("Type") ?? "", nullable: prop.getAttribute("Nullable") !== "false" });
          }
        }
        const base = node.getAttribute("BaseType");
        this.types.set(node.getAttribute("Name") ?? "", { base: base ? local(base) : undefined, open: node.getAttribute("OpenType") === "true", properties });
      }
    }
    const enums = doc.getElementsByTagName("EnumType");
    for (let i = 0; i < enums.length; i++) this.enums.add((enums[i] as Element).getAttribute("Name") ?? "");
  }

  private property(typeName: string, name: string): { type: string; nullable: boolean } | undefined {
    for (let type = this.types.get(typeName); type; type = type.base ? this.types.get(type.base) : undefined) {
      const found = type.properties.get(name);
      if (found) return found;
    }
    return undefined;
  }

  private isOpen(typeName: string): boolean {
    for (let type = this.types.get(typeName); type; type = type.base ? this.types.get(type.base) : undefined) if (type.open) return true;
    return false;
  }

  /** What in `value` the type `typeName` ("driveItem") does not allow; empty when nothing. */
  problems(typeName: string, value: unknown, at = typeName): string[] {
    if (!this.types.has(typeName)) return [`${at}: no type ${typeName} in the metadata`];
    if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${at}: expected an object of ${typeName}`];
    const found: string[] = [];
    for (const [name, inner] of Object.entries(value)) {
      // An annotation, or a value JSON leaves out.
      if (name.includes("@") || inner === undefined) continue;
      const property = this.property(typeName, name);
      if (!property) {
        if (!this.isOpen(typeName)) found.push(`${at}.${name}: not a property of ${typeName}`);
        continue;
      }
      found.push(...this.valueProblems(property.type, inner, property.nullable, `${at}.${name}`));
    }
    return found;
  }

  private valueProblems(type: string, value: unknown, nullable: boolean, at: string): string[] {
    if (value === null) return nullable ? [] : [`${at}: may not be null`];
    const collection = /^Collection\((.+)\)$/.exec(type);
    if (collection) {
      if (!Array.isArray(value)) return [`${at}: expected a collection`];
      return value.flatMap((item, index) => this.valueProblems(collection[1] ?? "", item, true, `${at}[${index}]`));
    }
    const kind = typeof value;
    switch (type) {
      case "Edm.String":
      case "Edm.Guid":
      case "Edm.Binary":
      case "Edm.Duration":
        return kind === "string" ? [] : [`${at}: expected a string`];
      case "Edm.DateTimeOffset":
      case "Edm.Date":
        return kind === "string" && !Number.isNaN(Date.parse(value as string)) ? [] : [`${at}: expected a date`];
      case "Edm.Boolean":
        return kind === "boolean" ? [] : [`${at}: expected true or false`];
      case "Edm.Int32":
      case "Edm.Int64":
      case "Edm.Int16":
      case "Edm.Byte":
        return Number.isInteger(value) ? [] : [`${at}: expected a whole number`];
      case "Edm.Double":
      case "Edm.Single":
      case "Edm.Decimal":
        return kind === "number" ? [] : [`${at}: expected a number`];
      default: {
        const name = local(type);
        if (this.enums.has(name)) return kind === "string" ? [] : [`${at}: expected a member of ${name}`];
        return this.problems(name, value, at);
      }
    }
  }
}
