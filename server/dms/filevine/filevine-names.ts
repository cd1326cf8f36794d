import { boxSafeName, firstFreeName } from "../box/box-names";

// FileVine's names for documents and folders: besides the rules every store has (at most 255
// characters, no "/" or "\", no control characters, no leading or trailing spaces, never "." or
// ".."), FileVine's documents download to Windows desktops, so the characters Windows refuses
// (: * ? " < > |) are replaced as well. Names compare without regard to case, as in FileVine's list.

const WINDOWS_FORBIDDEN = /[:*?"<>|]/g;

export const fileVineSafeName = (name: string): string => boxSafeName(name.replace(WINDOWS_FORBIDDEN, "_"));

/** The first of `stem.ext`, `stem (2).ext`, … that no document of the folder has. */
export const firstFreeFileName = (stem: string, extension: string, taken: Iterable<string>): string =>
  firstFreeName(stem.replace(WINDOWS_FORBIDDEN, "_"), extension.replace(WINDOWS_FORBIDDEN, "_"), taken);

/** Hashtags as FileVine keeps them: words of letters, digits, "_" and "-", without the "#". */
export function hashtagsOf(text: string): string[] {
  const tags = text
    .split(/[\s,;]+/)
    .map((tag) => tag.replace(/^#+/, "").replace(/[^A-Za-z0-9_-]/g, ""))
    .filter(Boolean);
  return [...new Set(tags.map((tag) => tag.toLowerCase()))];
}

/** The hashtag that marks a filing's document, found again by a retry: "ecfx" and the filing's key as hex. */
export const filingHashtag = (idempotencyKey: string): string => `ecfx${idempotencyKey.toLowerCase().replace(/[^0-9a-z]/g, "")}`;
