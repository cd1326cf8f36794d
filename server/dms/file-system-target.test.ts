import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DmsLocationTaken, DmsTargetError, type DmsTarget, intendAndWrite } from "./dms-target";
import { createFileSystemTarget, temporaryTag } from "./file-system-target";
import { renderStorageLocation, type StorageTemplateData } from "./path-template";

let sandbox: string;
let root: string;
let outside: string;

beforeEach(async () => {
  sandbox = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "ecfx-fs-target-")));
  root = path.join(sandbox, "root");
  outside = path.join(sandbox, "outside");
  await fs.mkdir(outside);
});

afterEach(async () => {
  vi.restoreAllMocks();
  await fs.rm(sandbox, { recursive: true, force: true });
});

/** Every file below `dir`, relative, with `/`. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

function request(folder: string[], name: string, bytes: string, properties: Record<string, string> = {}) {
  return { folder, name, extension: "pdf", bytes: Buffer.from(bytes), contentType: "application/pdf", properties };
}

describe.each([
  ["hard links", true],
  ["exclusive create and rename", false],
])("file-system target (%s)", (_label, hardLinks) => {
  it("creates the root and the folders, and returns the path relative to the root", async () => {
    const target = createFileSystemTarget(root, { hardLinks });
    const result = await target.store(["Acme Corp", "Acme v. Widgets", "1_23-cv-00456"], "2024-03-05 Motion", "pdf", Buffer.from("%PDF-1"));
    expect(result.path).toBe("Acme Corp/Acme v. Widgets/1_23-cv-00456/2024-03-05 Motion.pdf");
    expect(result.location).toBe(result.path);
    expect(await fs.readFile(path.join(root, ...result.path.split("/")), "utf8")).toBe("%PDF-1");
    expect(await filesUnder(root)).toEqual([result.path]);
  });

  it("never overwrites: three stores of one name give three files", async () => {
    const target = createFileSystemTarget(root, { hardLinks });
    const paths: string[] = [];
    for (const content of ["first", "second", "third"]) paths.push((await target.store(["Case"], "Notice", "pdf", Buffer.from(content))).path);
    expect(paths).toEqual(["Case/Notice.pdf", "Case/Notice (2).pdf", "Case/Notice (3).pdf"]);
    expect(await fs.readFile(path.join(root, "Case", "Notice.pdf"), "utf8")).toBe("first");
    expect(await fs.readFile(path.join(root, "Case", "Notice (2).pdf"), "utf8")).toBe("second");
    expect(await fs.readFile(path.join(root, "Case", "Notice (3).pdf"), "utf8")).toBe("third");
    expect(await filesUnder(root)).toHaveLength(3);
  });

  it("numbers concurrent stores of one name without losing any", async () => {
    const target = createFileSystemTarget(root, { hardLinks });
    const contents = Array.from({ length: 12 }, (_, index) => `content ${index}`);
    const results = await Promise.all(contents.map((content) => target.store(["Case"], "Notice", "pdf", Buffer.from(content))));
    expect(new Set(results.map((result) => result.path)).size).toBe(contents.length);
    const stored = await Promise.all(results.map((result) => fs.readFile(path.join(root, result.path), "utf8")));
    expect(stored.sort()).toEqual([...contents].sort());
    expect((await filesUnder(root)).filter((file) => file.endsWith(".tmp"))).toEqual([]);
  });

  it("leaves a file that was there before alone", async () => {
    await fs.mkdir(path.join(root, "Case"), { recursive: true });
    await fs.writeFile(path.join(root, "Case", "Notice.pdf"), "precious");
    const target = createFileSystemTarget(root, { hardLinks });
    expect((await target.store(["Case"], "Notice", "pdf", Buffer.from("new"))).path).toBe("Case/Notice (2).pdf");
    expect(await fs.readFile(path.join(root, "Case", "Notice.pdf"), "utf8")).toBe("precious");
  });

  it("writes properties as a sidecar only when there are some, and numbers the pair together", async () => {
    const target: DmsTarget = createFileSystemTarget(root, { hardLinks });
    const plain = await intendAndWrite(target, request(["Case"], "Plain", "a"), "key");
    expect(await filesUnder(root)).toEqual([plain.location]);

    const withProperties = await intendAndWrite(target, request(["Case"], "Notice", "b", { Client: "Acme", "Case number": "1:23-cv-4" }), "key");
    expect(withProperties.location).toBe("Case/Notice.pdf");
    expect(JSON.parse(await fs.readFile(path.join(root, "Case", "Notice.pdf.properties.json"), "utf8"))).toEqual({
      Client: "Acme",
      "Case number": "1:23-cv-4",
    });

    // A name whose document is free but whose sidecar is taken is skipped, and the other way round.
    await fs.writeFile(path.join(root, "Case", "Notice (2).pdf.properties.json"), "{}");
    await fs.writeFile(path.join(root, "Case", "Notice (3).pdf"), "other");
    const next = await intendAndWrite(target, request(["Case"], "Notice", "c", { Client: "Acme" }), "key");
    expect(next.location).toBe("Case/Notice (4).pdf");
    expect(await fs.readFile(path.join(root, "Case", "Notice (2).pdf.properties.json"), "utf8")).toBe("{}");
    expect(await fs.readFile(path.join(root, "Case", "Notice (3).pdf"), "utf8")).toBe("other");
    await expect(fs.access(path.join(root, "Case", "Notice (3).pdf.properties.json"))).rejects.toThrow();
    expect(await fs.readFile(path.join(root, "Case", "Notice (4).pdf.properties.json"), "utf8")).toContain('"Client": "Acme"');
  });

  it("names the file before writing it, writes exactly there, and finds its own copy again by content", async () => {
    const target = createFileSystemTarget(root, { hardLinks });
    const filing = request(["Case"], "Notice", "mine", { Client: "Acme" });
    const intended = await target.intend(filing, "record-1");
    expect(intended.location).toBe("Case/Notice.pdf");
    // Intending writes nothing, and finds nothing of ours yet.
    expect(await filesUnder(root)).toEqual([]);
    expect(await target.findExisting(intended)).toBeNull();

    expect((await target.write(filing, intended)).location).toBe("Case/Notice.pdf");
    expect(await target.findExisting(intended)).toEqual({ location: "Case/Notice.pdf" });
    // Another document under the name is not ours: same place, other content.
    expect(await target.findExisting({ ...intended, contentHash: "0".repeat(64) })).toBeNull();
    expect(await filesUnder(root)).toEqual(["Case/Notice.pdf", "Case/Notice.pdf.properties.json"]);
  });

  it("removes the temporary files an interrupted attempt of the same filing left, and only those", async () => {
    const target = createFileSystemTarget(root, { hardLinks });
    const filing = request(["Case"], "Notice", "mine", { Client: "Acme" });
    const intended = await target.intend(filing, "record-1");
    const folder = path.join(root, "Case");
    await fs.mkdir(folder, { recursive: true });
    // What a crash between writing and naming leaves: bytes under a temporary name of this file.
    await fs.writeFile(path.join(folder, `.ecfx-${temporaryTag("record-1")}-0123456789abcdef.tmp`), "mi");
    // Another filing's temporary (another writer, still at work) is not touched.
    const other = `.ecfx-${temporaryTag("record-2")}-0123456789abcdef.tmp`;
    await fs.writeFile(path.join(folder, other), "other");
    // The next attempt intends again, as every attempt does, and writes.
    const again = await target.intend(filing, "record-1");
    expect(again).toEqual(intended);
    expect(await filesUnder(root)).toEqual([`Case/${other}`]);
    await target.write(filing, again);
    expect(await filesUnder(root)).toEqual([`Case/${other}`, "Case/Notice.pdf", "Case/Notice.pdf.properties.json"].sort());
  });

  it("refuses to write where another document took the intended name, leaving it alone", async () => {
    const target = createFileSystemTarget(root, { hardLinks });
    const intended = await target.intend(request(["Case"], "Notice", "mine", { Client: "Acme" }), "record-1");
    await fs.writeFile(path.join(root, "Case", "Notice.pdf"), "theirs");
    await expect(target.write(request(["Case"], "Notice", "mine", { Client: "Acme" }), intended)).rejects.toBeInstanceOf(DmsLocationTaken);
    expect(await fs.readFile(path.join(root, "Case", "Notice.pdf"), "utf8")).toBe("theirs");
    expect(await filesUnder(root)).toEqual(["Case/Notice.pdf"]);
  });

  it("skips the names other filings hold, asking once for several free ones, and names its file below the firm's root", async () => {
    const target = createFileSystemTarget(root, { hardLinks, firmFolder: "store" });
    await fs.mkdir(path.join(root, "Case"), { recursive: true });
    await fs.writeFile(path.join(root, "Case", "Notice.pdf"), "on disk");
    const asked: string[][] = [];
    const held = async (paths: string[]) => {
      asked.push(paths);
      return new Set(["store/Case/Notice (2).pdf"]);
    };
    const intended = await target.intend(request(["Case"], "Notice", "mine"), "record-1", held);
    expect(intended).toMatchObject({ location: "Case/Notice (3).pdf", path: "store/Case/Notice (3).pdf" });
    expect(asked).toEqual([[2, 3, 4, 5, 6, 7, 8, 9].map((copy) => `store/Case/Notice (${copy}).pdf`)]);
  });

  it("chooses again when another filing recorded the name it chose first", async () => {
    const target = createFileSystemTarget(root, { hardLinks, firmFolder: "" });
    const taken = new Set<string>();
    const recorded: string[] = [];
    const stored = await intendAndWrite(target, request(["Case"], "Notice", "mine"), "record-1", {
      held: async (paths) => new Set(paths.filter((p) => taken.has(p))),
      record: async (intended) => {
        recorded.push(intended.path!);
        if (taken.size > 0) return;
        taken.add(intended.path!);
        throw new DmsLocationTaken(target.kind, intended.location);
      },
    });
    expect(recorded).toEqual(["Case/Notice.pdf", "Case/Notice (2).pdf"]);
    expect(stored.location).toBe("Case/Notice (2).pdf");
    expect(await filesUnder(root)).toEqual(["Case/Notice (2).pdf"]);
  });

  it("finishes a write that stopped between the sidecar and the document", async () => {
    const target = createFileSystemTarget(root, { hardLinks });
    const filing = request(["Case"], "Notice", "mine", { Client: "Acme" });
    const intended = await target.intend(filing, "record-1");
    await fs.writeFile(path.join(root, "Case", "Notice.pdf.properties.json"), `${JSON.stringify({ Client: "Acme" }, null, 2)}\n`);
    expect((await target.write(filing, intended)).location).toBe("Case/Notice.pdf");
    expect(await fs.readFile(path.join(root, "Case", "Notice.pdf"), "utf8")).toBe("mine");
  });

  it("never reads or writes outside the root through an intended location", async () => {
    const target = createFileSystemTarget(root, { hardLinks });
    await fs.writeFile(path.join(outside, "x.pdf"), "x");
    const escape = { location: "../outside/x.pdf", contentHash: "0".repeat(64), idempotencyKey: "k" };
    await expect(target.findExisting(escape)).rejects.toThrow(/outside the storage folder/);
    await expect(target.write(request([], "x", "x"), escape)).rejects.toThrow(/outside the storage folder/);
    expect(await fs.readFile(path.join(outside, "x.pdf"), "utf8")).toBe("x");
  });
});

describe("file-system target", () => {
  it("keeps traversal attempts inside the root", async () => {
    const target = createFileSystemTarget(root);
    const attempts: Array<[string[], string]> = [
      [["..", "..", "etc"], "passwd"],
      [["../../etc"], "../../passwd"],
      [["..\\..", "x"], "..\\..\\evil"],
      [["/abs", "/"], "/etc/passwd"],
      [["C:\\x"], "C:\\Windows\\evil"],
      [["CON.txt", "aux"], "CON"],
      [[".", ".."], "."],
      [["北京 Łódź 😀", "e\u0301"], "\u202Eexe.pdf"],
      [["x".repeat(1000)], "y".repeat(1000)],
      [["北".repeat(400)], "😀".repeat(400)],
    ];
    for (const [folder, name] of attempts) {
      const result = await target.store(folder, name, "pdf", Buffer.from("x"));
      const full = path.join(root, ...result.path.split("/"));
      expect(path.relative(root, full).startsWith(".."), result.path).toBe(false);
      expect(await fs.readFile(full, "utf8")).toBe("x");
      for (const segment of result.path.split("/")) expect(Buffer.byteLength(segment)).toBeLessThan(255);
    }
    expect(await fs.readdir(outside)).toEqual([]);
    expect(await fs.readdir(sandbox)).toEqual(["outside", "root"].sort());
    expect(await filesUnder(root)).toContain("_CON.txt/_aux/_CON.pdf");
    expect(await filesUnder(root)).toContain("C__x/C_-Windows-evil.pdf");
  });

  it("refuses a symlinked folder that leads outside the root", async () => {
    await fs.mkdir(root);
    await fs.symlink(outside, path.join(root, "escape"), "dir");
    const target = createFileSystemTarget(root);
    const attempt = target.store(["escape", "deeper"], "Notice", "pdf", Buffer.from("x"));
    await expect(attempt).rejects.toBeInstanceOf(DmsTargetError);
    await expect(target.store(["escape"], "Notice", "pdf", Buffer.from("x"))).rejects.toThrow(/outside the storage folder/);
    expect(await fs.readdir(outside)).toEqual([]);
  });

  it("refuses a dangling symlinked folder and a folder name taken by a file", async () => {
    await fs.mkdir(root);
    await fs.symlink(path.join(outside, "missing"), path.join(root, "dangling"), "dir");
    await fs.writeFile(path.join(root, "file"), "x");
    const target = createFileSystemTarget(root);
    await expect(target.store(["dangling"], "Notice", "pdf", Buffer.from("x"))).rejects.toBeInstanceOf(DmsTargetError);
    await expect(target.store(["file"], "Notice", "pdf", Buffer.from("x"))).rejects.toThrow(/not a folder/);
    await expect(fs.access(path.join(outside, "missing"))).rejects.toThrow();
  });

  it("follows a symlinked folder that stays inside the root", async () => {
    await fs.mkdir(path.join(root, "real"), { recursive: true });
    await fs.symlink(path.join(root, "real"), path.join(root, "alias"), "dir");
    const result = await createFileSystemTarget(root).store(["alias"], "Notice", "pdf", Buffer.from("x"));
    expect(result.path).toBe("real/Notice.pdf");
  });

  it("does not write through a symlink that has the file's name", async () => {
    await fs.mkdir(root);
    await fs.writeFile(path.join(outside, "target.pdf"), "outside");
    await fs.symlink(path.join(outside, "target.pdf"), path.join(root, "Notice.pdf"));
    const result = await createFileSystemTarget(root).store([], "Notice", "pdf", Buffer.from("new"));
    expect(result.path).toBe("Notice (2).pdf");
    expect(await fs.readFile(path.join(outside, "target.pdf"), "utf8")).toBe("outside");
  });

  it("accepts a root that is itself a symlink", async () => {
    await fs.mkdir(path.join(sandbox, "real-root"));
    await fs.symlink(path.join(sandbox, "real-root"), root, "dir");
    const result = await createFileSystemTarget(root).store(["a"], "b", "pdf", Buffer.from("x"));
    expect(await fs.readFile(path.join(sandbox, "real-root", "a", "b.pdf"), "utf8")).toBe("x");
    expect(result.path).toBe("a/b.pdf");
  });

  it("says clearly when the root is unusable", async () => {
    expect(() => createFileSystemTarget("")).toThrow(/not set/);
    const file = path.join(sandbox, "a-file");
    await fs.writeFile(file, "x");
    await expect(createFileSystemTarget(file).check()).rejects.toThrow(/is not a folder/);
    await expect(createFileSystemTarget(path.join(file, "below")).store([], "x", "pdf", Buffer.from("x"))).rejects.toThrow(/is not a folder/);
    const error = await createFileSystemTarget(file)
      .check()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DmsTargetError);
    expect((error as DmsTargetError).retryable).toBe(false);
    expect((error as DmsTargetError).kind).toBe("file-system");
    expect(await createFileSystemTarget(root).check()).toBe(root);
  });

  it("switches to exclusive create and rename when the file system refuses hard links", async () => {
    const link = vi.spyOn(fs, "link").mockRejectedValue(Object.assign(new Error("operation not permitted"), { code: "EPERM" }));
    const target = createFileSystemTarget(root);
    expect((await target.store(["Case"], "Notice", "pdf", Buffer.from("one"))).path).toBe("Case/Notice.pdf");
    expect((await target.store(["Case"], "Notice", "pdf", Buffer.from("two"))).path).toBe("Case/Notice (2).pdf");
    expect(link).toHaveBeenCalledTimes(1);
    expect(await fs.readFile(path.join(root, "Case", "Notice.pdf"), "utf8")).toBe("one");
    expect(await fs.readFile(path.join(root, "Case", "Notice (2).pdf"), "utf8")).toBe("two");
    expect(await filesUnder(root)).toEqual(["Case/Notice (2).pdf", "Case/Notice.pdf"]);
  });

  it("marks a full disk as worth retrying", async () => {
    vi.spyOn(fs, "link").mockRejectedValue(Object.assign(new Error("no space left on device"), { code: "ENOSPC" }));
    const error = await createFileSystemTarget(root)
      .store([], "Notice", "pdf", Buffer.from("x"))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DmsTargetError);
    expect((error as DmsTargetError).retryable).toBe(true);
    expect((error as Error).message).toMatch(/ENOSPC/);
    expect(await filesUnder(root)).toEqual([]);
  });

  it("takes the sidecar back when the document cannot be written", async () => {
    const realLink = fs.link.bind(fs);
    vi.spyOn(fs, "link").mockImplementation(async (from, to) => {
      if (String(to).endsWith(".properties.json")) return realLink(from, to);
      throw Object.assign(new Error("i/o error"), { code: "EIO" });
    });
    const target = createFileSystemTarget(root);
    await expect(target.store(request(["Case"], "Notice", "x", { Client: "Acme" }))).rejects.toMatchObject({ retryable: true });
    expect(await filesUnder(root)).toEqual([]);
  });

  it("checks the extension", async () => {
    const target = createFileSystemTarget(root);
    expect((await target.store([], "a", ".PDF", Buffer.from("x"))).path).toBe("a.PDF");
    expect((await target.store([], "b", "", Buffer.from("x"))).path).toBe("b");
    await expect(target.store([], "c", "../pdf", Buffer.from("x"))).rejects.toThrow(/not a file extension/);
    await expect(target.store([], "c", "p/df", Buffer.from("x"))).rejects.toThrow(/not a file extension/);
  });

  it("leaves no temporary files behind when a store fails", async () => {
    await fs.mkdir(root);
    const target = createFileSystemTarget(root);
    await fs.writeFile(path.join(root, "taken"), "x");
    await expect(target.store(["taken"], "x", "pdf", Buffer.from("x"))).rejects.toThrow();
    await target.store(["ok"], "x", "pdf", Buffer.from("x"));
    expect((await filesUnder(root)).filter((file) => file.includes(".ecfx-"))).toEqual([]);
  });

  it("keeps whatever a template renders inside the root (property)", async () => {
    const hostile = fc.oneof(
      fc.string({ unit: "binary", maxLength: 200 }),
      fc
        .array(fc.constantFrom("..", ".", "/", "\\", "a", " ", "CON", "C:", ":", "\u0000", "é", "😀", "北", "~"), { maxLength: 30 })
        .map((parts) => parts.join("")),
    );
    const template = fc
      .array(
        fc.oneof(
          fc.constantFrom("{{client.name}}", "{{matter.name}}", "{{case.case_number}}", "/", "\\", "..", "../", "C:"),
          fc.string({ maxLength: 10 }).map((s) => s.replace(/[{}\\]/g, "")),
        ),
        {
          maxLength: 8,
        },
      )
      .map((parts) => parts.join(""));
    const target = createFileSystemTarget(root);
    await fc.assert(
      fc.asyncProperty(template, template, hostile, hostile, hostile, async (documentPath, documentName, client, matter, caseNumber) => {
        const data: StorageTemplateData = {
          firm: { name: "F" },
          client: { name: client },
          matter: { name: matter },
          case: { name: "c", case_number: caseNumber },
          jurisdiction: null,
          envelope: { date: "2024-03-05" },
          document: { name: "d", number: 1 },
        };
        const { folder, name } = renderStorageLocation({ document_path: documentPath, document_name: documentName }, data);
        const result = await target.store(folder, name, "pdf", Buffer.from("x"));
        const real = await fs.realpath(path.join(root, ...result.path.split("/")));
        expect(real.startsWith(`${root}${path.sep}`)).toBe(true);
      }),
      { numRuns: 150 },
    );
    expect(await fs.readdir(outside)).toEqual([]);
    expect((await fs.readdir(sandbox)).sort()).toEqual(["outside", "root"]);
  });
});
