// Dropbox's rules for file and folder names, as a pure function: the same request always gives
// the same name, so an intended location can be recomputed and compared.
// https://help.dropbox.com/organize/file-names: no / \ : ? * " < > |, no trailing dot or space,
// not "." or "..", at most 255 characters; names compare without regard to case. Names Dropbox
// keeps out of sync (desktop.ini, .DS_Store, …) it refuses as disallowed_name: they get a "_" in front.

export const MAX_NAME_LENGTH = 255;

const FORBIDDEN = /[/\\:?*"<>|\p{Cc}]/gu;
const IGNORED_BY_DROPBOX = new Set(["desktop.ini", "thumbs.db", ".ds_store", ".dropbox", ".dropbox.attr"]);

/** One name Dropbox accepts: forbidden characters become "_", trailing dots and spaces go, at most `max` characters. */
export function dropboxSegment(raw: string, max = MAX_NAME_LENGTH): string {
  let name = raw.replace(FORBIDDEN, "_").trim();
  // Cut by code points, so a character outside the basic plane is never split in two.
  name = Array.from(name).slice(0, max).join("");
  name = name.replace(/[. ]+$/, "");
  if (name === "" || name === "." || name === "..") return "_";
  return name;
}

/** The file name of the `copy`-th choice: "name.pdf", then "name (2).pdf", "name (3).pdf", …, never past 255 characters. */
export function dropboxFileName(base: string, extension: string, copy = 1): string {
  const ext = extension ? `.${dropboxSegment(extension, 16)}` : "";
  const suffix = copy > 1 ? ` (${copy})` : "";
  const room = MAX_NAME_LENGTH - Array.from(ext).length - suffix.length;
  const name = `${dropboxSegment(base, room)}${suffix}${ext}`;
  return IGNORED_BY_DROPBOX.has(name.toLowerCase()) ? `_${name}` : name;
}

/** Dropbox compares paths without regard to case: the key two names collide under. */
export function collisionKey(name: string): string {
  return name.normalize("NFC").toLowerCase();
}
