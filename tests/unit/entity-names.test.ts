import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REGISTRY } from "../../app/common/resources";
import { fieldPermissionLabelKeys, resourceTypeLabelKey } from "../../app/common/resources/labels";
import { resourceTypes } from "../../app/common/role-message";
import { resources } from "../../app/utils/catalogue.server";

// Entity names in the plural are written once, as the entity's title, and read as English plurals
// of the entity's singular; the role's resource types borrow those titles.

const catalogue = resources.en as unknown as Record<string, Record<string, unknown>>;

function text(key: string): string | undefined {
  const [ns, rest] = key.split(/:(.*)/s) as [string, string];
  let node: unknown = catalogue[ns];
  for (const part of rest.split(".")) node = typeof node === "object" && node ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === "string" ? node : undefined;
}

/** The English plural of a noun phrase (its last word). */
function plural(phrase: string): string {
  if (/[^aeiou]y$/i.test(phrase)) return `${phrase.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(phrase)) return `${phrase}es`;
  return `${phrase}s`;
}

/** Entities whose list title names the area rather than the plural of one record. */
const AREA_TITLES: Record<string, string> = { "inbox-items": "Inbox", "auto-case-creation": "Auto case creation", billing: "Billing" };

/** The resource types of the role message, as the profile lists them. */
function roleResourceTypes(): string[] {
  const proto = fs.readFileSync(path.resolve(import.meta.dirname, "../../proto/security_role.proto"), "utf8");
  const body = proto.slice(proto.indexOf("message UserSecurityRole"));
  return [...body.slice(0, body.indexOf("\n}")).matchAll(/AccessType (\w+)_access = /g)].map((m) => m[1]!);
}

describe("entity names", () => {
  it("call each entity's list by the plural of its singular", () => {
    for (const def of Object.values(REGISTRY)) {
      const singular = text(`resources:${def.key}.singular`);
      const title = text(`resources:${def.key}.title`);
      expect(singular, def.key).toBeTruthy();
      expect(title?.toLowerCase(), def.key).toBe((AREA_TITLES[def.key] ?? plural(singular!)).toLowerCase());
    }
  });

  it("name every resource type of a role in the catalogue, none spelled as a misformed plural", () => {
    const types = roleResourceTypes();
    expect(types).toContain("storage_policy");
    for (const type of types) {
      const label = text(resourceTypeLabelKey(type));
      expect(label, type).toBeTruthy();
      expect(label, type).not.toMatch(/[^aeiou]ys\b/i);
    }
    expect(text(resourceTypeLabelKey("storage_policy"))).toBe("Storage policies");
  });

  it("name every field a role can restrict, by the entity's own label where there is one", () => {
    const fields = resourceTypes().flatMap((type) => type.fields.map((field) => [type.name, field] as const));
    expect(fields.length).toBeGreaterThan(300);
    for (const [type, field] of fields) expect(fieldPermissionLabelKeys(type, field).map(text).find(Boolean), `${type}.${field}`).toBeTruthy();
    const first = (type: string, field: string) => fieldPermissionLabelKeys(type, field).map(text).find(Boolean);
    expect(first("case", "name")).toBe("Case name");
    expect(first("clio_credential", "client_secret")).toBe(text("resources:dms-clio.fields.client_secret"));
  });
});
