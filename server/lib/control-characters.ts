// C0 control characters have no business in names, descriptions or docket text, and PostgreSQL
// refuses NUL in text outright. They are removed on the way in (API bodies, queries and ids,
// generic writes, imports, what the notice parser read), keeping tab and line ends, which
// multi-line text uses.

// eslint-disable-next-line no-control-regex -- the control characters are what this removes
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

export function stripControlCharacters(text: string): string {
  return text.replace(CONTROL, "");
}

const isPlainObject = (value: object): value is Record<string, unknown> => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/** The value with control characters removed from every string in it (keys too); other values as they are. */
export function withoutControlCharacters<T>(value: T): T {
  if (typeof value === "string") return stripControlCharacters(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => withoutControlCharacters(v)) as T;
  if (value && typeof value === "object" && isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [stripControlCharacters(k), withoutControlCharacters(v)])) as T;
  }
  return value;
}
