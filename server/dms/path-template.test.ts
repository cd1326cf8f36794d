import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_DOCUMENT_NAME,
  DEFAULT_DOCUMENT_PATH,
  FALLBACK_NAME,
  MAX_SEGMENT_BYTES,
  MAX_SEGMENT_CHARS,
  StorageTemplateError,
  isoDate,
  renderDocumentName,
  renderDocumentProperties,
  renderDocumentPath,
  renderStorageLocation,
  sanitizeFileName,
  sanitizeSegment,
  validateStorageTemplate,
  type StorageTemplateData,
} from "./path-template";

function data(overrides: Partial<StorageTemplateData> = {}): StorageTemplateData {
  return {
    firm: { name: "Demo LLP" },
    client: { name: "Acme Corp", unique_key: "C-100", reference_id: null },
    matter: { name: "Acme v. Widgets", unique_key: "M-7", reference_id: "R7" },
    case: { name: "Acme v. Widgets", case_number: "1:23-cv-00456", unique_key: null, reference_id: null },
    jurisdiction: { name: "S.D.N.Y." },
    envelope: { date: "2024-03-05", court_envelope_id: "ENV-9", filed_by: "Jane Roe", name: "Motion" },
    document: { name: "Motion to Dismiss", number: 12 },
    ...overrides,
  };
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** What every produced segment must satisfy, on every file system we support. */
function expectSafeSegment(segment: string): void {
  expect(segment).not.toBe("");
  expect(segment).not.toBe(".");
  expect(segment).not.toBe("..");
  expect(segment).not.toMatch(/[/\\:*?"<>|]/);
  expect(segment).not.toMatch(/[\p{Cc}]/u);
  expect(segment).not.toMatch(/^[\s.]|[\s.]$/u);
  expect(segment).not.toMatch(WINDOWS_RESERVED);
  expect([...segment].length).toBeLessThanOrEqual(MAX_SEGMENT_CHARS);
  expect(Buffer.byteLength(segment)).toBeLessThanOrEqual(MAX_SEGMENT_BYTES);
}

describe("storage path templates", () => {
  it("renders the defaults when the policy leaves the templates empty", () => {
    expect(renderDocumentPath(null, data())).toEqual(["Acme Corp", "Acme v. Widgets", "1_23-cv-00456"]);
    expect(renderDocumentPath("  ", data())).toEqual(renderDocumentPath(DEFAULT_DOCUMENT_PATH, data()));
    expect(renderDocumentName(undefined, data())).toBe("2024-03-05 Motion to Dismiss");
    expect(renderDocumentName("", data())).toBe(renderDocumentName(DEFAULT_DOCUMENT_NAME, data()));
  });

  it("renders document property values as text with the filing's data", () => {
    expect(renderDocumentProperties({ Matter: "{{matter.unique_key}}", Case: "{{case.case_number}}", Class: "NOTICE" }, data())).toEqual({
      Matter: "M-7",
      Case: "1:23-cv-00456",
      Class: "NOTICE",
    });
    expect(() => renderDocumentProperties({ Bad: "{{case.numbr}}" }, data())).toThrow(/document property template/);
  });

  it("renders every documented field", () => {
    const template =
      "{{firm.name}}|{{client.name}}|{{client.unique_key}}|{{matter.name}}|{{matter.unique_key}}|{{case.case_number}}|{{jurisdiction.name}}|{{envelope.date}}|{{envelope.court_envelope_id}}|{{document.name}}|{{document.number}}";
    expect(renderDocumentName(template, data())).toBe(
      "Demo LLP_Acme Corp_C-100_Acme v. Widgets_M-7_1_23-cv-00456_S.D.N.Y._2024-03-05_ENV-9_Motion to Dismiss_12",
    );
  });

  it("formats the envelope date as YYYY-MM-DD whatever form the notice used", () => {
    for (const date of ["2024-03-05", "2024-03-05T23:59:00Z", "3/5/2024", "03/05/2024"]) {
      expect(renderDocumentName("{{envelope.date}}", data({ envelope: { date } }))).toBe("2024-03-05");
    }
    expect(isoDate("not a date")).toBeNull();
    expect(isoDate("2024-02-30")).toBeNull();
    expect(renderDocumentName("{{envelope.date}} x", data({ envelope: { date: null } }))).toBe("x");
    expect(renderDocumentName('{{date envelope.date "YYYYMMDD"}}', data())).toBe("20240305");
  });

  it("has helpers for case and fallbacks", () => {
    expect(renderDocumentName("{{upper client.name}} {{lower matter.unique_key}}", data())).toBe("ACME CORP m-7");
    expect(renderDocumentName('{{default matter.name "No matter"}}', data({ matter: null }))).toBe("No matter");
    expect(renderDocumentName("{{#if document}}{{document.number}} {{document.name}}{{else}}Notice{{/if}}", data({ document: undefined }))).toBe("Notice");
    expect(renderDocumentName("{{#if document}}{{document.number}} {{document.name}}{{else}}Notice{{/if}}", data())).toBe("12 Motion to Dismiss");
  });

  it("drops the folders whose data is missing, and falls back to untitled when nothing is left", () => {
    expect(renderDocumentPath(null, data({ client: null, matter: null }))).toEqual(["1_23-cv-00456"]);
    expect(renderDocumentPath("{{client.name}}", data({ client: null }))).toEqual([FALLBACK_NAME]);
    expect(renderDocumentName("{{document.name}}", data({ document: undefined }))).toBe(FALLBACK_NAME);
    expect(renderDocumentName("   ...   ", data())).toBe(FALLBACK_NAME);
  });

  it("does not escape HTML: these are file names", () => {
    expect(renderDocumentName("{{client.name}}", data({ client: { name: "Smith & Jones 'LLP'" } }))).toBe("Smith & Jones 'LLP'");
  });

  it("lets only the template's slashes make folders, never the data's", () => {
    const hostile = data({ client: { name: "../../etc" }, matter: { name: "a/b\\c" }, case: { name: "x", case_number: "/abs" } });
    expect(renderDocumentPath(null, hostile)).toEqual(["-..-etc", "a-b-c", "-abs"]);
    expect(renderDocumentName("{{client.name}}", hostile)).toBe("-..-etc");
  });

  it("neutralises traversal in the template itself", () => {
    expect(renderDocumentPath("../../etc/passwd", data())).toEqual(["etc", "passwd"]);
    expect(renderDocumentPath("..\\..\\Windows", data())).toEqual(["Windows"]);
    expect(renderDocumentPath("/abs/{{client.name}}", data())).toEqual(["abs", "Acme Corp"]);
    expect(renderDocumentPath("C:\\x\\{{client.name}}", data())).toEqual(["C_", "x", "Acme Corp"]);
    expect(renderDocumentPath("\\\\server\\share\\x", data())).toEqual(["server", "share", "x"]);
    expect(renderDocumentPath("./.././/", data())).toEqual([FALLBACK_NAME]);
    expect(renderDocumentName("../../etc/passwd", data())).toBe("-..-etc-passwd");
  });

  it("sanitises single segments", () => {
    const cases: Array<[string, string]> = [
      ["..", ""],
      [".", ""],
      ["...", ""],
      ["CON", "_CON"],
      ["con.txt", "_con.txt"],
      ["CON.txt", "_CON.txt"],
      ["Nul .tar.gz", "_Nul .tar.gz"],
      ["COM1", "_COM1"],
      ["lpt9.pdf", "_lpt9.pdf"],
      ["CONSOLE", "CONSOLE"],
      ["C:", "C_"],
      ['a:b*c?d"e<f>g|h', "a_b_c_d_e_f_g_h"],
      ["name. . ", "name"],
      ["  .hidden", "hidden"],
      ["tab\there\nnewline", "tab here newline"],
      ["bell\u0007\u0000nul", "bellnul"],
      ["evil\u202Efdp.exe", "evilfdp.exe"],
      ["Cafe\u0301", "Café"],
      ["Łódź 北京 😀", "Łódź 北京 😀"],
      ["\uD800lone", "lone"],
    ];
    for (const [input, expected] of cases) {
      expect(sanitizeSegment(input), JSON.stringify(input)).toBe(expected);
    }
  });

  it("caps long names by characters and by bytes without splitting characters", () => {
    const long = sanitizeSegment("a".repeat(500));
    expect(long).toBe("a".repeat(MAX_SEGMENT_CHARS));
    const emoji = sanitizeSegment("👩‍👩‍👧".repeat(100));
    expect(Buffer.byteLength(emoji)).toBeLessThanOrEqual(MAX_SEGMENT_BYTES);
    expect(emoji.length % "👩‍👩‍👧".length).toBe(0);
    const cjk = sanitizeSegment("北".repeat(300));
    expect(cjk).toBe("北".repeat(Math.floor(MAX_SEGMENT_BYTES / 3)));
    // Truncation must not leave a trailing dot or space behind.
    expectSafeSegment(sanitizeSegment(`${"a".repeat(MAX_SEGMENT_CHARS - 1)} b`));
    expectSafeSegment(sanitizeSegment(`CON.${"a".repeat(MAX_SEGMENT_CHARS - 6)}. b`));
  });

  it("renders names as one segment", () => {
    expect(sanitizeFileName("a/b\\c")).toBe("a-b-c");
    expect(sanitizeFileName("")).toBe(FALLBACK_NAME);
    expect(renderStorageLocation({ document_path: "{{client.name}}", document_name: "{{case.case_number}}" }, data())).toEqual({
      folder: ["Acme Corp"],
      name: "1_23-cv-00456",
    });
  });

  it("rejects broken and unknown templates with a clear StorageTemplateError", () => {
    const rejected: Array<[string, RegExp]> = [
      ["{{client.name", /Parse error/],
      ["{{client.nam}}", /unknown field "client.nam"; client has client.name/],
      ["{{clinet.name}}", /unknown field "clinet.name"/],
      ["{{shout client.name}}", /unknown helper "shout"/],
      ["{{lookup client 'name'}}", /unknown helper "lookup"/],
      ["{{#each client}}x{{/each}}", /blocks may use if, unless/],
      ["{{#with client}}{{name}}{{/with}}", /blocks may use if, unless/],
      ["{{> header}}", /partials/],
      ["{{@root.client.name}}", /not allowed/],
      ["{{../client.name}}", /not allowed/],
      ["{{client}}", /is an object/],
      ["{{client.name.length}}", /unknown field/],
      ["{{client.constructor}}", /unknown field/],
      ["{{if client.name}}", /needs a block/],
    ];
    for (const [template, message] of rejected) {
      let error: unknown;
      try {
        renderDocumentName(template, data());
      } catch (caught) {
        error = caught;
      }
      expect(error, template).toBeInstanceOf(StorageTemplateError);
      expect((error as StorageTemplateError).field).toBe("document_name");
      expect((error as Error).message, template).toMatch(message);
      expect((error as Error).message).toMatch(/^Storage policy document name template: /);
    }
    expect(() => renderDocumentPath("{{client.name}}/{{nope}}", data())).toThrow(/document path template: unknown field "nope" \(line 1, column 19\)/);
    expect(() => validateStorageTemplate("{{#if client}}{{client.name}}{{/if}}/{{case.case_number}}", "document_path")).not.toThrow();
    expect(() => validateStorageTemplate("{{case.numbr}}", "document_path")).toThrow(StorageTemplateError);
  });

  const hostileText = fc.oneof(
    fc.string({ unit: "binary", maxLength: 300 }),
    fc.constantFrom("..", ".", "../../etc", "..\\..", "/abs", "C:\\x", "CON", "con.txt", "NUL.", " . ", "\u202E", "a".repeat(400)),
    fc.array(fc.constantFrom("..", ".", "/", "\\", "a", " ", "CON", ":", "\u0000", "\n", "é", "😀", "北"), { maxLength: 40 }).map((parts) => parts.join("")),
  );
  const fieldTag = fc.constantFrom("{{client.name}}", "{{matter.name}}", "{{case.case_number}}", "{{document.name}}", "{{envelope.date}}");
  const literal = fc.array(fc.constantFrom("..", ".", "/", "\\", "a", " ", "CON", ":", "é", "😀", "-", "C:"), { maxLength: 6 }).map((parts) => parts.join(""));

  function expectSafeLocation(rendered: { folder: string[]; name: string }): void {
    expect(rendered.folder.length).toBeGreaterThan(0);
    for (const segment of [...rendered.folder, rendered.name]) expectSafeSegment(segment);
    // Idempotent: the file-system target sanitises again without changing anything.
    for (const segment of [...rendered.folder, rendered.name]) expect(sanitizeSegment(segment)).toBe(segment);
  }

  it("keeps every segment safe whatever the data, and data never breaks a valid template (property)", () => {
    const template = fc.array(fc.oneof(fieldTag, literal), { maxLength: 8 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(template, hostileText, hostileText, hostileText, hostileText, (path, client, matter, caseNumber, documentName) => {
        expectSafeLocation(
          renderStorageLocation(
            { document_path: path, document_name: path },
            data({
              client: { name: client },
              matter: { name: matter },
              case: { name: "x", case_number: caseNumber },
              document: { name: documentName, number: 1 },
            }),
          ),
        );
      }),
      { numRuns: 500 },
    );
  });

  it("either refuses an arbitrary template with StorageTemplateError or renders safe segments (property)", () => {
    fc.assert(
      fc.property(hostileText, (template) => {
        try {
          expectSafeLocation(renderStorageLocation({ document_path: template, document_name: template }, data()));
        } catch (error) {
          if (!(error instanceof StorageTemplateError)) throw error;
        }
      }),
      { numRuns: 500 },
    );
  });
});
