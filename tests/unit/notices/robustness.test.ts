// parseNoticeEmail must resolve, never throw, and stay fast on any input:
// random text and bytes, damaged corpus messages, deep MIME trees, huge
// bodies and hostile HTML.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNoticeEmail, toGoldShape, type ParsedEmail } from "../../../server/notices";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const corpusDir = path.join(projectRoot, "tests/fixtures/pacer-email");
const corpus: Buffer[] = ["nef", "nda"].flatMap((sub) =>
  readdirSync(path.join(corpusDir, sub))
    .filter((f) => f.endsWith(".txt"))
    .sort()
    .map((f) => readFileSync(path.join(corpusDir, sub, f))),
);

const KINDS = new Set(["notice", "not_a_notice", "unrecognised", "malformed"]);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Structural invariants every result must satisfy. */
function checkResult(result: ParsedEmail): void {
  expect(KINDS.has(result.kind)).toBe(true);
  if (result.kind !== "notice") {
    expect(typeof result.reason).toBe("string");
    expect(result.reason.length).toBeGreaterThan(0);
    return;
  }
  const n = result.notice;
  expect(n.dockets.length).toBeGreaterThan(0);
  for (const d of n.dockets) {
    expect(d.docket_number.length).toBeGreaterThan(0);
    expect(d.docket_entries).toHaveLength(1);
    for (const e of d.docket_entries) {
      if (e.date_filed !== null) expect(e.date_filed).toMatch(ISO_DATE);
      if (e.entered_on !== null) expect(e.entered_on).toMatch(ISO_DATE);
    }
  }
  expect(() => JSON.stringify(toGoldShape(n))).not.toThrow();
}

/** Parse and check; fails when one parse takes longer than `boundMs`. */
async function parseChecked(input: Buffer | string, boundMs: number): Promise<ParsedEmail> {
  const started = performance.now();
  const result = await parseNoticeEmail(input);
  const elapsed = performance.now() - started;
  checkResult(result);
  expect(elapsed, `parse took ${elapsed.toFixed(0)} ms`).toBeLessThan(boundMs);
  return result;
}

const HEADER = "From: ecf@nysd.uscourts.test\r\nSubject: Activity in Case 1:24-cv-00001-AB Roe v. Doe Order\r\nMIME-Version: 1.0\r\n";
const htmlMessage = (body: string) => `${HEADER}Content-Type: text/html\r\n\r\n${body}`;
const textMessage = (body: string) => `${HEADER}Content-Type: text/plain\r\n\r\n${body}`;

// Pieces of notice structure mixed into random text, so that generated input
// reaches the label, section and subject code rather than stopping early.
const NOTICE_PIECES = [
  "Case Name:",
  "Case Number:",
  "Document Number:",
  "Docket Text:",
  "Filer:",
  "Document(s):",
  "Document:",
  "Notice of Electronic Filing",
  "Notice of Docket Activity",
  "Notice has been electronically mailed to:",
  "Notice will be electronically mailed to:",
  "The following document(s) are associated with this transaction:",
  "Document description:Main Document",
  "1:24-cv-00001-AB-CD",
  "24-12345-abc7",
  "1-23-42603-nhl",
  "22-1234",
  "https://ecf.nysd.uscourts.gov/doc1/12345678901?caseid=1&de_seq_num=2&magic_num=3",
  "https://ecf.ca2.uscourts.gov/docs1/00208883934?uid=abc",
  "https://ca9-showdoc.azurewebsites.us/NDA/e663b724-b14c-f011-877a-001dd806079d",
  "https://ecf.nysd.uscourts.gov/cgi-bin/DktRpt.pl?546923",
  "filed on 8/11/2021",
  "entered on 13/45/2021",
  "Jane Roe  jroe@example.test, ",
  "@",
  "<a href=",
  "</a>",
  "<br>",
  "<td>",
  "<script>",
  "&nbsp",
  "&#",
  "\n",
  " ",
  '"',
  "Ch-7 ",
  " et al",
];

const noticeLikeText = fc.array(fc.oneof(fc.constantFrom(...NOTICE_PIECES), fc.string({ maxLength: 30 })), { maxLength: 80 }).map((parts) => parts.join(""));

describe("parseNoticeEmail robustness", () => {
  it("never throws on arbitrary strings", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 2000, unit: "binary" }), async (s) => {
        await parseChecked(s, 2000);
      }),
      { numRuns: 200 },
    );
  });

  it("never throws on arbitrary bytes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4000 }), async (bytes) => {
        await parseChecked(Buffer.from(bytes), 2000);
      }),
      { numRuns: 200 },
    );
  });

  it("never throws on notice-like HTML and text bodies", async () => {
    await fc.assert(
      fc.asyncProperty(noticeLikeText, noticeLikeText, fc.boolean(), async (subject, body, html) => {
        const raw = `From: ecf@nysd.uscourts.test\r\nSubject: ${subject.replace(/[\r\n]/g, " ")}\r\nContent-Type: text/${html ? "html" : "plain"}\r\n\r\n${body}`;
        await parseChecked(raw, 2000);
      }),
      { numRuns: 300 },
    );
  });

  it("never throws on truncated corpus messages", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: corpus.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true }), async (i, cut) => {
        const raw = corpus[i] ?? Buffer.alloc(0);
        await parseChecked(raw.subarray(0, Math.floor(raw.length * cut)), 2000);
      }),
      { numRuns: 150 },
    );
  });

  it("never throws on corpus messages with random byte corruption", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: corpus.length - 1 }),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 40 }),
        async (i, edits) => {
          const raw = Buffer.from(corpus[i] ?? Buffer.alloc(0));
          for (const [where, byte] of edits) if (raw.length) raw[Math.min(raw.length - 1, Math.floor(where * raw.length))] = byte;
          await parseChecked(raw, 2000);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("handles 200 levels of nested multiparts", async () => {
    const inner =
      corpus[2]
        ?.toString("latin1")
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join("\n\n") ?? "";
    let part = `Content-Type: text/html\r\n\r\n${inner}`;
    for (let level = 0; level < 200; level++) {
      part = `Content-Type: multipart/mixed; boundary="level-${level}"\r\n\r\n--level-${level}\r\n${part}\r\n--level-${level}--\r\n`;
    }
    const result = await parseChecked(`Subject: nested\r\nFrom: someone@example.test\r\n${part}`, 10_000);
    expect(result.kind).toBe("notice");
  });

  it("handles nested message/rfc822 attachments", async () => {
    let raw = corpus[2]?.toString("latin1") ?? "";
    for (let level = 0; level < 20; level++) {
      raw = `Subject: fwd ${level}\r\nFrom: someone@example.test\r\nContent-Type: multipart/mixed; boundary="m${level}"\r\n\r\n--m${level}\r\nContent-Type: message/rfc822\r\nContent-Disposition: attachment\r\n\r\n${raw}\r\n--m${level}--\r\n`;
    }
    await parseChecked(raw, 10_000);
  });

  it("handles multi-megabyte bodies within the time bound", async () => {
    await parseChecked(htmlMessage(`<p>Case Name: Roe v. Doe</p>${"<p>filler text &amp; more</p>".repeat(150_000)}`), 15_000);
    await parseChecked(textMessage(`${"Case Number: 1:24-cv-00001\nDocket Text: x\n".repeat(100_000)}`), 15_000);
    const huge = await parseChecked(textMessage(`Notice has been electronically mailed to:\n${"Jane Roe jroe@example.test, ".repeat(200_000)}`), 15_000);
    expect(huge.kind).not.toBe("notice");
  });

  it("handles hostile HTML within the time bound", async () => {
    const bound = 10_000;
    await parseChecked(htmlMessage(`${"<div>".repeat(100_000)}Case Name: Roe v. Doe${"</div>".repeat(100_000)}`), bound);
    await parseChecked(htmlMessage(`${"<div><span><b><table><tr><td>".repeat(30_000)}unclosed`), bound);
    await parseChecked(htmlMessage(`${"<div>".repeat(100_000)}${"</span>".repeat(100_000)}`), bound);
    await parseChecked(htmlMessage(`<script>${"<b>Case Name:</b>".repeat(50_000)}`), bound);
    await parseChecked(htmlMessage(`<style>${"x{}".repeat(100_000)}</style><script>alert(1)</script><p>Case Number: 1:24-cv-1</p>`), bound);
    await parseChecked(htmlMessage(`${'<a href="https://ecf.nysd.uscourts.gov/doc1/1?caseid=1">'.repeat(50_000)}x`), bound);
    await parseChecked(htmlMessage(`<a ${"x=1 ".repeat(100_000)}href="${"h".repeat(100_000)}">y</a>`), bound);
    await parseChecked(htmlMessage(`${"&amp;".repeat(200_000)}${"&#".repeat(100_000)}${"<".repeat(100_000)}`), bound);
    await parseChecked(htmlMessage(`<!--${"-".repeat(200_000)}`), bound);
  });

  it("handles pathological label, e-mail and docket-number runs within the time bound", async () => {
    const bound = 10_000;
    await parseChecked(textMessage("Case Name: a\nCase Number: 1:24-cv-00001\nDocket Text: x\n".repeat(50_000)), bound);
    await parseChecked(
      textMessage(`Case Number: 1:24-cv-00001\nNotice has been electronically mailed to:\n${"a".repeat(300_000)}${"@".repeat(300_000)}`),
      bound,
    );
    await parseChecked(textMessage(`Case Number: 1:24-cv-00001\nNotice has been electronically mailed to:\n${"a.".repeat(300_000)}@x`), bound);
    await parseChecked(textMessage("Notice has been electronically mailed to\n".repeat(100_000)), bound);
    await parseChecked(`Subject: ${"1:24-cv-00001-".repeat(2_000)}\r\n\r\nCase Name: x\nCase Number: 1:24-cv-00001\nDocket Text: y`, bound);
    await parseChecked(textMessage(`${"Case Name: ".repeat(50_000)}\nCase Number: ${"1".repeat(100_000)}`), bound);
  });

  it("handles long runs of separator characters in every field within the time bound", async () => {
    // Runs that defeat backtracking regular expressions such as /[\s,;]+$/.
    const tokens = [
      "; ",
      " \n",
      " ,",
      "#  ",
      ". ",
      "a.",
      "1-",
      " - ",
      "CH-",
      "et al ",
      "&#",
      "@",
      "a@",
      "(",
      "Filed by ",
      "Case Name: ",
      "Document description:",
    ];
    for (const token of tokens) {
      const run = token.repeat(Math.ceil(40_000 / token.length));
      const line = run.replace(/\n/g, " ");
      await parseChecked(
        textMessage(
          `Case Name: ${run}x\nCase Number: 1:24-cv-00001 ${run}x\nDocument Number: ${run}\nDocket Text: ${run}x\n` +
            `1:24-cv-1 Notice has been electronically mailed to:\n${run}x a@b.co\nDocument description:${run}\n`,
        ),
        5_000,
      );
      await parseChecked(
        htmlMessage(
          `<p>Case Name: ${run}x</p><p>Case Number: 1:24-cv-00001</p><p>Docket Text: ${run}x</p><b>Notice has been electronically mailed to:</b><br>${run}x a@b.co<br>`,
        ),
        5_000,
      );
      await parseChecked(
        `Subject: Activity in Case 1:24-cv-00001-AB ${line.slice(0, 1_900)}x\r\n\r\nCase Name: Roe v. Doe\nCase Number: 1:24-cv-00001-AB\nDocket Text: hi`,
        5_000,
      );
    }
  });

  it("handles Supreme Court wording, Tyler subjects, bare CRs and mixed charsets at length within the time bound", async () => {
    const bound = 10_000;
    const scotus = (body: string) => `From: no-reply@sc-us.gov\r\nSubject: Supreme Court Electronic Filing System\r\nContent-Type: text/html\r\n\r\n${body}`;
    await parseChecked(scotus(`${'A new docket entry, "'.repeat(50_000)} has been added`), bound);
    await parseChecked(
      scotus(
        `A new docket entry, "x" has been added for ${"<a href='https://www.supremecourt.gov/search.aspx?filename=/docket/DocketFiles/html/Public/25-1.html'>R v. D</a>".repeat(20_000)}`,
      ),
      bound,
    );
    await parseChecked(
      `From: efilingmail@tylerhost.net\r\nSubject: Filing Submitted for Case: ${"1; ".repeat(600)}Envelope Number: 1\r\n\r\n${"Case #: ".repeat(50_000)}`,
      bound,
    );
    await parseChecked(Buffer.from(`Subject: x\r${"Case Number: 1:24-cv-1\r".repeat(50_000)}`, "latin1"), bound);
    const mixed = Buffer.concat([
      Buffer.from("Subject: x\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"),
      Buffer.alloc(2_000_000, Buffer.from([0xc3, 0xa9, 0xa7, 0xe2, 0x80])),
    ]);
    await parseChecked(mixed, bound);
  });

  it("classifies empty and non-mail input as malformed", async () => {
    expect((await parseNoticeEmail("")).kind).toBe("malformed");
    expect((await parseNoticeEmail(" \r\n ")).kind).toBe("malformed");
    expect((await parseNoticeEmail(Buffer.from([0, 1, 2, 3, 255]))).kind).toBe("malformed");
    expect((await parseNoticeEmail(42 as unknown as string)).kind).toBe("malformed");
  });
});
