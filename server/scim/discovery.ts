import { GROUP_SCHEMA, ScimError, USER_SCHEMA } from "./protocol";

// The discovery endpoints (RFC 7644 §4): what this service supports, its resource types and the
// schemas of the attributes it keeps. Identity providers and validators read them before syncing.

export const MAX_RESULTS = 200;

export function serviceProviderConfig(base: string) {
  return {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: "oauthbearertoken",
        name: "Bearer token",
        description: "A provisioning token an administrator of the firm creates on the console's SCIM provisioning page.",
        primary: true,
      },
    ],
    meta: { resourceType: "ServiceProviderConfig", location: `${base}/ServiceProviderConfig` },
  };
}

const resourceTypes = {
  User: { name: "User", endpoint: "/Users", description: "A user of the firm", schema: USER_SCHEMA },
  Group: { name: "Group", endpoint: "/Groups", description: "A group of the firm's users", schema: GROUP_SCHEMA },
} as const;

function resourceType(id: keyof typeof resourceTypes, base: string) {
  const type = resourceTypes[id];
  return {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
    id,
    ...type,
    schemaExtensions: [],
    meta: { resourceType: "ResourceType", location: `${base}/ResourceTypes/${id}` },
  };
}

export function listResourceTypes(base: string) {
  return Object.keys(resourceTypes).map((id) => resourceType(id as keyof typeof resourceTypes, base));
}

export function getResourceType(id: string, base: string) {
  if (!(id in resourceTypes)) throw new ScimError(404, `Resource type ${id.slice(0, 100)} not found.`);
  return resourceType(id as keyof typeof resourceTypes, base);
}

type Attribute = Record<string, unknown>;

const text = (name: string, description: string, extra: Attribute = {}): Attribute => ({
  name,
  type: "string",
  multiValued: false,
  description,
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
  ...extra,
});

const reference = (name: string, description: string, referenceTypes: string[]): Attribute => ({
  name,
  type: "complex",
  multiValued: true,
  description,
  required: false,
  mutability: name === "groups" ? "readOnly" : "readWrite",
  returned: "default",
  subAttributes: [
    text("value", "The id of the resource", { mutability: "immutable" }),
    { ...text("$ref", "Its URI", { mutability: "immutable" }), type: "reference", referenceTypes },
    text("display", "Its name", { mutability: "readOnly" }),
  ],
});

const schemas = {
  [USER_SCHEMA]: {
    name: "User",
    description: "A user of the firm",
    attributes: [
      text("userName", "The user's e-mail address, with which they sign in", { required: true, uniqueness: "server" }),
      {
        ...text("name", "The user's name"),
        type: "complex",
        subAttributes: [text("formatted", "The full name"), text("givenName", "The given name"), text("familyName", "The family name")],
      },
      text("displayName", "The name shown for the user"),
      {
        ...text("emails", "The user's e-mail address: the userName"),
        type: "complex",
        multiValued: true,
        subAttributes: [text("value", "The address"), text("type", "work"), { ...text("primary", "Always true"), type: "boolean" }],
      },
      { ...text("active", "Whether the user may sign in"), type: "boolean" },
      reference("groups", "The groups the user belongs to", ["Group"]),
    ],
  },
  [GROUP_SCHEMA]: {
    name: "Group",
    description: "A group of the firm's users",
    attributes: [text("displayName", "The group's name", { required: true, uniqueness: "server" }), reference("members", "The group's users", ["User"])],
  },
};

function schema(id: keyof typeof schemas, base: string) {
  return { schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"], id, ...schemas[id], meta: { resourceType: "Schema", location: `${base}/Schemas/${id}` } };
}

export function listSchemas(base: string) {
  return Object.keys(schemas).map((id) => schema(id as keyof typeof schemas, base));
}

export function getSchema(id: string, base: string) {
  if (!(id in schemas)) throw new ScimError(404, `Schema ${id.slice(0, 200)} not found.`);
  return schema(id as keyof typeof schemas, base);
}
