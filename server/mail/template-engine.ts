import fs from "node:fs";
import dayjs from "dayjs";
import Handlebars from "handlebars";

// One Handlebars environment for every e-mail template: HTML-escaping by default, no prototype
// access, and the same helpers for the editor's preview and for mail that goes out.

export const templateEngine = Handlebars.create();

/** Handlebars hands every helper its options object last; it is never a value to format. */
const isHelperOptions = (value: unknown): boolean => typeof value === "object" && value !== null && "hash" in value;

/** `{{formatDate date}}` → "March 5, 2024"; `{{formatDate date "YYYY-MM-DD"}}` picks the format. */
templateEngine.registerHelper("formatDate", (value: unknown, format: unknown) => {
  if (typeof value !== "string" && typeof value !== "number") return "";
  const date = dayjs(value);
  if (!date.isValid()) return String(value);
  return date.format(typeof format === "string" && !isHelperOptions(format) ? format : "MMMM D, YYYY");
});

/** `{{join serviceContacts}}` → "a, b"; `{{join weblinks " | "}}` picks the separator. */
templateEngine.registerHelper("join", (list: unknown, separator: unknown) => {
  if (!Array.isArray(list)) return "";
  return list.map(String).join(typeof separator === "string" && !isHelperOptions(separator) ? separator : ", ");
});

/** Why a template cannot be used, or null when it compiles. */
export function templateError(source: string): string | null {
  try {
    templateEngine.precompile(source, { strict: false });
    return null;
  } catch (error) {
    return firstLines(error);
  }
}

/** The start of an engine error: Handlebars appends the whole template excerpt otherwise. */
export function firstLines(error: unknown): string {
  return error instanceof Error ? error.message.split("\n").slice(0, 4).join("\n") : String(error);
}

/**
 * A template file of `server/mail/templates`. Found beside this module when the server runs from
 * its sources (development, tests, the container image, which copies the tree), and under the
 * working directory when the server code has been bundled elsewhere.
 */
export function readTemplateFile(name: string): string {
  const candidates = [new URL(`./templates/${name}`, import.meta.url), `${process.cwd()}/server/mail/templates/${name}`];
  for (const candidate of candidates) {
    if (fs.existsSync(candidate)) return fs.readFileSync(candidate, "utf8");
  }
  throw new Error(`The e-mail template ${name} was not found in server/mail/templates.`);
}
