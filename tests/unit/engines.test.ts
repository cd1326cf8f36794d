import { readFileSync } from "node:fs";
import semver from "semver";
import { describe, expect, it } from "vitest";

// Every Node the project declares must be one every installed package accepts: npm only warns
// (EBADENGINE) about the Node running the install, so the other declared majors would go unchecked.
type LockEntry = { version?: string; engines?: unknown; optional?: boolean };
type Lock = { packages: Record<string, LockEntry> };

const root = new URL("../../", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL("package-lock.json", root), "utf8")) as Lock;

/** One range per declared major, e.g. "^20.19.0 || ^22.13.0" gives ">=20.19.0 <21.0.0-0" and ">=22.13.0 <23.0.0-0". */
export function declaredMajors(range: string): string[] {
  return new semver.Range(range).set.map((comparators) => comparators.map((c) => c.value).join(" "));
}

/** The declared majors a package's `engines.node` leaves out (all of them when the range cannot be read). */
export function majorsRefused(declared: string[], packageRange: string): string[] {
  if (semver.validRange(packageRange) === null) return declared;
  return declared.filter((major) => !semver.subset(major, packageRange));
}

function nodeRange(engines: unknown): string | undefined {
  if (engines && typeof engines === "object" && !Array.isArray(engines)) {
    const node = (engines as Record<string, unknown>).node;
    return typeof node === "string" ? node : undefined;
  }
  return undefined;
}

describe("Node engines", () => {
  const declared = declaredMajors(manifest.engines.node);

  it("declares bounded Node majors, none past its end of life", () => {
    expect(declared.length).toBeGreaterThan(0);
    for (const major of declared) expect(semver.minVersion(major)?.major).toBeGreaterThanOrEqual(20);
    // An open range ("x || >=24") would promise majors nobody has run the product on.
    for (const major of declared) expect(major).toMatch(/<\d+\.0\.0-0$/);
  });

  it("every installed package accepts every declared Node major", () => {
    const refused: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const range = nodeRange(entry.engines);
      // npm leaves out an optional package whose engines refuse the running Node, without a warning.
      if (path === "" || range === undefined || entry.optional === true) continue;
      const majors = majorsRefused(declared, range);
      if (majors.length > 0) refused.push(`${path}@${entry.version} wants node ${range}, refuses ${majors.join(" and ")}`);
    }
    expect(refused).toEqual([]);
  });

  it("finds a package that refuses a declared major", () => {
    expect(majorsRefused(declaredMajors("^20.19.0 || ^22.12.0"), ">=22")).toEqual([">=20.19.0 <21.0.0-0"]);
    expect(majorsRefused(declaredMajors("^20.19.0 || ^22.13.0"), "^20.17.0 || >=22.9.0")).toEqual([]);
    expect(majorsRefused(declaredMajors("^20.19.0"), "not a range")).toEqual([">=20.19.0 <21.0.0-0"]);
  });

  it("the lock file was written from this package.json", () => {
    expect(nodeRange(lock.packages[""]?.engines)).toBe(manifest.engines.node);
  });
});
