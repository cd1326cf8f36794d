import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseChangelog, readReleaseNotes } from "./changelog.server";

const SAMPLE = `# Changelog

Intro text that is not a release.

## [Unreleased]

### Added
- A \`code\` word, a [link](https://keepachangelog.com/) and **bold**
  continued on a second line.
- A [bad link](javascript:alert(1)) stays text.
- The firm's "quoted" Tom & Jerry <tag> \`a&b\` and \`x<y\`.

## [1.2.0] - 2026-10-01

### Fixed
- One fix.

### Security
- One rule.
`;

describe("release notes from a Keep a Changelog file", () => {
  it("reads releases, dates, sections and the inline parts of each line", () => {
    const releases = parseChangelog(SAMPLE);
    expect(releases.map((r) => [r.version, r.date])).toEqual([
      ["Unreleased", null],
      ["1.2.0", "2026-10-01"],
    ]);
    expect(releases[1]!.sections.map((s) => s.heading)).toEqual(["Fixed", "Security"]);
    expect(releases[0]!.sections[0]!.items[0]).toEqual([
      { kind: "text", text: "A " },
      { kind: "code", text: "code" },
      { kind: "text", text: " word, a " },
      { kind: "link", text: "link", href: "https://keepachangelog.com/" },
      { kind: "text", text: " and " },
      { kind: "strong", text: "bold" },
      { kind: "text", text: " continued on a second line." },
    ]);
    expect(releases[0]!.sections[0]!.items[1]).toEqual([{ kind: "text", text: "A bad link stays text." }]);
    // Text comes back as written, not HTML-escaped.
    expect(releases[0]!.sections[0]!.items[2]!.map((p) => p.text).join("")).toBe('The firm\'s "quoted" Tom & Jerry <tag> a&b and x<y.');
  });

  it("keeps the product's own CHANGELOG.md in the format: releases newest first, known section names", () => {
    const releases = readReleaseNotes(path.resolve(import.meta.dirname, "../../.."));
    expect(releases[0]?.version).toBe("Unreleased");
    const known = ["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"];
    for (const release of releases) {
      expect(release.version === "Unreleased" || /^\d+\.\d+\.\d+$/.test(release.version), release.version).toBe(true);
      if (release.version !== "Unreleased") expect(release.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      for (const section of release.sections) expect(known).toContain(section.heading);
      expect(release.sections.every((s) => s.items.length > 0)).toBe(true);
    }
    const dated = releases.filter((r) => r.date).map((r) => r.date!);
    expect([...dated].sort().reverse()).toEqual(dated);
  });

  it("has none when the installation ships no CHANGELOG.md", () => {
    expect(readReleaseNotes("/nonexistent-folder")).toEqual([]);
  });
});
