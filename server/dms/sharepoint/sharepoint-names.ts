// SharePoint's rules for file and folder names (Online and Server 2016 and later alike): no
// " * : < > ? / \ |, no leading or trailing spaces, no trailing dot, none of the names Windows
// reserves, nothing ending in ".lock" or containing "_vti_", a segment of at most 255 characters
// and a whole server-relative path of at most 400. Names are made to fit here, before any call,
// so a notice's title never makes an upload fail.

export const MAX_SEGMENT_LENGTH = 255;
export const MAX_PATH_LENGTH = 400;

const FORBIDDEN = /["*:<>?/\\|]/g;
// eslint-disable-next-line no-control-regex -- control characters are what it removes
const CONTROL = /[\u0000-\u001f\u007f]/g;
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9]|desktop\.ini)$/i;
const REPLACEMENT = "_";

/** Trims spaces at both ends and dots at the end (SharePoint refuses both). */
function trimEnds(name: string): string {
  return name.replace(/^\s+/, "").replace(/[\s.]+$/, "");
}

/** A name SharePoint accepts for `raw`, or "" when nothing is left of it. */
export function sharePointSegment(raw: string, maxLength = MAX_SEGMENT_LENGTH): string {
  let name = trimEnds(raw.replace(CONTROL, "").replace(FORBIDDEN, REPLACEMENT).replace(/_vti_/gi, "vti"));
  if (name.length > maxLength) name = trimEnds(name.slice(0, maxLength));
  if (RESERVED.test(name) || RESERVED.test(name.replace(/\.[^.]*$/, ""))) name = `${name}${REPLACEMENT}`;
  if (/\.lock$/i.test(name)) name = `${name}${REPLACEMENT}`;
  return name;
}

/** The folder segments as SharePoint names; empty ones are dropped. */
export function sharePointFolder(segments: string[]): string[] {
  return segments.map((segment) => sharePointSegment(segment)).filter((segment) => segment !== "");
}

/**
 * The file name for copy `copy` (1 = the plain name, 2 = "name (2).ext"), shortened so that both
 * the name and the whole path (`pathLength`: the characters before it, separators included) fit.
 */
export function sharePointFileName(base: string, extension: string, copy = 1, pathLength = 0): string {
  const suffix = `${copy > 1 ? ` (${copy})` : ""}${extension ? `.${extension}` : ""}`;
  const room = Math.min(MAX_SEGMENT_LENGTH, MAX_PATH_LENGTH - pathLength) - suffix.length;
  if (room < 1) throw new RangeError(`The folder path is too long for SharePoint (more than ${MAX_PATH_LENGTH - suffix.length - 1} characters)`);
  const stem = sharePointSegment(base, room) || "document";
  return sharePointSegment(`${stem}${suffix}`);
}

/** The first of "name.ext", "name (2).ext", … that `isTaken` says is free (SharePoint compares names without case). */
export async function firstFreeName(
  base: string,
  extension: string,
  pathLength: number,
  isTaken: (name: string) => Promise<boolean>,
  maxCopies = 1_000,
): Promise<string> {
  for (let copy = 1; copy <= maxCopies; copy++) {
    const name = sharePointFileName(base, extension, copy, pathLength);
    if (!(await isTaken(name))) return name;
  }
  throw new RangeError(`More than ${maxCopies} documents are named ${base}`);
}
