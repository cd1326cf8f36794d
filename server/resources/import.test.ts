import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HttpError } from "../lib/errors";
import { type ImportFile, type ImportLine, importLines, readImportFile as readFromDisk } from "./import-file";
import { parseLine } from "./import-line";
import { SERVER_RESOURCES } from "./registry";

const resource = (key: string) => SERVER_RESOURCES.find((r) => r.def.key === key)!;

// Import files are read from disk, where the upload is kept.
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ecfx-import-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));
let files = 0;
function readImportFile(res: ReturnType<typeof resource>, text: string) {
  const file = path.join(folder, `${++files}.csv`);
  fs.writeFileSync(file, text);
  return readFromDisk(res, file);
}

async function linesOf(file: ImportFile): Promise<ImportLine[]> {
  const out: ImportLine[] = [];
  for await (const line of importLines(file)) out.push(line);
  return out;
}

async function refusal(key: string, text: string): Promise<string> {
  const error = await readImportFile(resource(key), text).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HttpError);
  return (error as HttpError).message;
}

describe("reading an import file", () => {
  it("reads an exported file back: the id column kept, computed columns dropped, formula marks removed", async () => {
    const file = await readImportFile(
      resource("clients"),
      "\uFEFFid,name,unique_key,created_at,updated_at,matter_count\nc1,'=SUM(A1),'-7,2024-01-01T00:00:00.000Z,2024-01-01T00:00:00.000Z,3\n",
    );
    expect(file.columns.map((c) => c.name)).toEqual(["id", "name", "unique_key"]);
    const line = parseLine(resource("clients"), file, (await linesOf(file))[0]!);
    expect(line).toMatchObject({ line: 2, id: "c1", values: { name: "=SUM(A1)", unique_key: "-7", status: "active" }, errors: {} });
    expect(line.given).toEqual(["name", "unique_key"]);
  });

  it("numbers lines from where each record starts and skips blank ones", async () => {
    const file = await readImportFile(resource("clients"), 'name,unique_key\n\n"Two\nlines",A\n,,\nB name,B\n');
    expect((await linesOf(file)).map((l) => l.line)).toEqual([3, 6]);
    expect(file.count).toBe(2);
  });

  it("says why a file cannot be imported", async () => {
    expect(await refusal("clients", "\uFEFF \n")).toBe("The file is empty. An import file needs a header row and at least one line.");
    expect(await refusal("clients", "name\tunique_key\nA\tB")).toMatch(/^The file is not comma-separated/);
    expect(await refusal("clients", 'name,unique_key\n"A,B\n')).toMatch(/^The file could not be read as comma-separated values: Quote Not Closed/);
    expect(await refusal("cases", "name,case_number\nA,1")).toBe("Required columns are missing: Matter, Jurisdiction, Timekeepers.");
  });

  it("counts CRLF files' lines right, however the file arrives in chunks", async () => {
    const big = `name,unique_key\r\n${"x".repeat(70_000)},A\r\n"B\r\nname",B\r\nC,C\r\n`;
    const file = await readImportFile(resource("clients"), big);
    expect((await linesOf(file)).map((l) => [l.line, l.cells[1]])).toEqual([
      [2, "A"],
      [3, "B"],
      [5, "C"],
    ]);
  });

  it("collects the values of the key columns a synchronising import asks for", async () => {
    const file = await readFromDiskWithKeys("name,unique_key\nA,K1\nB,\nC,K3\n");
    expect([...file.keys.unique_key!]).toEqual(["K1", "K3"]);
    expect([...file.keys.id!]).toEqual([]);
  });
});

async function readFromDiskWithKeys(text: string) {
  const file = path.join(folder, `${++files}.csv`);
  fs.writeFileSync(file, text);
  return readFromDisk(resource("clients"), file, { keys: ["id", "unique_key"] });
}

describe("parsing a line", () => {
  it("splits lists, reads booleans and validates with the entity's schema", async () => {
    const res = resource("timekeepers");
    const file = await readImportFile(
      res,
      "full_name,email,is_attorney,billable,additional_receipt_emails\nAda,ADA@x.test,Yes,no,a@x.test; b@x.test ;\nBo,not-an-email,perhaps,,a@x.test;a@x.test",
    );
    const [good, bad] = (await linesOf(file)).map((l) => parseLine(res, file, l));
    expect(good!.errors).toEqual({});
    expect(good!.values).toMatchObject({ email: "ada@x.test", is_attorney: true, billable: false, additional_receipt_emails: ["a@x.test", "b@x.test"] });
    expect(bad!.errors).toEqual({
      is_attorney: ["Enter true, false, yes or no."],
      email: ["Enter a valid email address."],
      additional_receipt_emails: ["Email added already"],
    });
  });

  it("rejects an impossible date on its line, in the catalogue's words, and keeps a real one", async () => {
    const res = resource("clients");
    const file = await readImportFile(res, "name,unique_key,open_date\nA,C-1,2025-13-45\nB,C-2,2024-02-30\nC,C-3,2024-02-29\n");
    const [month, day, good] = (await linesOf(file)).map((l) => parseLine(res, file, l));
    expect(month!.errors).toEqual({ open_date: ["There is no such date: enter a day of the calendar as YYYY-MM-DD."] });
    expect(day!.errors).toEqual({ open_date: ["There is no such date: enter a day of the calendar as YYYY-MM-DD."] });
    expect(good!.errors).toEqual({});
    expect(good!.values).toMatchObject({ open_date: "2024-02-29" });
  });
});
