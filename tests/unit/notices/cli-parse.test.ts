import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseCommand } from "../../../server/cli/parse";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const corpus = path.join(projectRoot, "tests/fixtures/pacer-email");
const fixtures = path.join(projectRoot, "tests/fixtures/notices");

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    err.push(String(chunk));
    return true;
  });
  return { out: () => out.join(""), err: () => err.join("") };
}

describe("ecfx parse", () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("prints the gold-shaped JSON of one file", async () => {
    const io = capture();
    const code = await parseCommand([path.join(corpus, "nef/alsd_3.txt"), "--json"]);
    expect(code).toBe(0);
    const printed = JSON.parse(io.out()) as Record<string, unknown>;
    const gold = JSON.parse(readFileSync(path.join(corpus, "nef/alsd_3.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(printed).sort()).toEqual(Object.keys(gold).sort());
    expect(printed.court_id).toBe("alsd");
  });

  it("adds the product fields with --full and prints {} for a non-notice", async () => {
    const io = capture();
    const code = await parseCommand(["--json", "--full", path.join(fixtures, "nef-sealed.eml"), path.join(fixtures, "court-announcement.eml")]);
    expect(code).toBe(0);
    const lines = io
      .out()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { file: string; result: Record<string, unknown> });
    expect(lines).toHaveLength(2);
    expect(lines[0]?.result).toMatchObject({ notice_type: "NEF", court_host: "ecf.caed.uscourts.gov" });
    expect(lines[1]?.result).toEqual({});
  });

  it("writes NAME.json files, mirroring nef/ and nda/ folders", async () => {
    const out = mkdtempSync(path.join(tmpdir(), "ecfx-cli-"));
    dirs.push(out);
    capture();
    const code = await parseCommand([
      path.join(corpus, "nef/alsd_3.txt"),
      path.join(corpus, "nef/cacb_4.txt"),
      path.join(corpus, "nda/ca2_2.txt"),
      "--out",
      out,
    ]);
    expect(code).toBe(0);
    expect(existsSync(path.join(out, "nef/alsd_3.json"))).toBe(true);
    expect(JSON.parse(readFileSync(path.join(out, "nef/cacb_4.json"), "utf8"))).toEqual({});
    expect(JSON.parse(readFileSync(path.join(out, "nda/ca2_2.json"), "utf8"))).toMatchObject({ court_id: "ca2", appellate: true });
  });

  it("prints a summary line without --json", async () => {
    const io = capture();
    expect(await parseCommand([path.join(fixtures, "acms.eml")])).toBe(0);
    expect(io.out()).toContain("ACMS ca2 25-1187 Motion to Extend Time");
  });

  it("exits 1 with a clear message for an unreadable file", async () => {
    const io = capture();
    const code = await parseCommand([path.join(fixtures, "does-not-exist.eml"), path.join(fixtures, "nda.eml"), "--json"]);
    expect(code).toBe(1);
    expect(io.err()).toContain("cannot read");
    expect(io.err()).toContain("no such file");
    expect(io.out()).toContain('"court_id":"ca3"');
  });

  it("exits 2 on usage errors", async () => {
    capture();
    expect(await parseCommand([])).toBe(2);
    expect(await parseCommand(["--bogus", "x.eml"])).toBe(2);
    expect(await parseCommand(["x.eml", "--out"])).toBe(2);
  });
});
