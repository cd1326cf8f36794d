import Handlebars from "handlebars";

// One Handlebars environment for every e-mail template: HTML-escaping by default, no prototype
// access, and the same helpers for the editor's preview and for mail that goes out.

export const templateEngine = Handlebars.create();

/** Why a template cannot be used, or null when it compiles. */
export function templateError(source: string): string | null {
  try {
    templateEngine.precompile(source, { strict: false });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message.split("\n").slice(0, 4).join("\n") : String(error);
  }
}
