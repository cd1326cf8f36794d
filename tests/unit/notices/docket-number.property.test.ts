// Property tests of the docket-number grammar: numbers generated in every form
// CM/ECF prints (with judge initials, defendant numbers, chapters, district
// codes before or after) are found in surrounding text and taken apart into
// the parts they were built from.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstDocketNumber, parseAppellateDocketNumber, parseDocketNumber } from "../../../server/notices/docket-number";
import { normaliseCaseNumber } from "../../../server/resources/case-number";

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
const letters = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Za-z]{${min},${max}}$`));
const upper = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Z]{${min},${max}}$`));

const CIVIL_TYPES = ["cv", "bk", "ap", "mc", "md", "CV", "BK"] as const;
const CRIMINAL_TYPES = ["cr", "mj", "po"] as const;

/** A district or bankruptcy number in full form, with what it is made of. */
const fullForm = fc
  .record({
    office: fc.integer({ min: 0, max: 9 }).map(String),
    year: digits(2, 2),
    type: fc.constantFrom(...CIVIL_TYPES, ...CRIMINAL_TYPES),
    seq: digits(1, 5),
    judges: fc.array(upper(2, 4), { maxLength: 2 }),
    defendant: fc.option(fc.integer({ min: 1, max: 40 }).map(String), { nil: null }),
  })
  .map((p) => {
    const criminal = (CRIMINAL_TYPES as readonly string[]).includes(p.type);
    const defendant = criminal ? p.defendant : null;
    const core = `${p.office}:${p.year}-${p.type}-${p.seq}`;
    const printed = [core, ...p.judges, ...(defendant ? [defendant] : [])].join("-");
    return { ...p, defendant, core, printed };
  });

/** District code before ("CAN/"), after ("/CAN", " (CAN)") or none. */
const courtCode = fc.option(fc.record({ code: upper(2, 4), where: fc.constantFrom("before", "after-slash", "after-paren") }), { nil: null });

function withCode(printed: string, code: { code: string; where: string } | null): string {
  if (!code) return printed;
  if (code.where === "before") return `${code.code}/${printed}`;
  if (code.where === "after-slash") return `${printed}/${code.code}`;
  return `${printed} (${code.code})`;
}

/** Text around a number that cannot be read as part of it. */
const before = fc.constantFrom("", "Case Number: ", "Case Number:\t", "in ", "(");
const after = fc.constantFrom("", " ", " https://ecf.example.test/cgi-bin/DktRpt.pl?1", ", filed", ".");

describe("docket-number grammar (property-based)", () => {
  it("a full-form number, with or without judge initials, defendant and district code, is found and split into its parts", () => {
    fc.assert(
      fc.property(fullForm, courtCode, before, after, (dn, code, pre, post) => {
        const printed = withCode(dn.printed, code);
        const found = firstDocketNumber(`${pre}${printed}${post}`);
        expect(found).toBe(printed);
        const parts = parseDocketNumber(found);
        expect(parts).toMatchObject({
          docket_number: dn.core,
          federal_dn_office_code: dn.office,
          federal_dn_case_type: dn.type,
          federal_dn_judge_initials_assigned: dn.judges[0] ?? null,
          federal_dn_judge_initials_referred: dn.judges[1] ?? null,
          federal_defendant_number: dn.defendant,
          full: printed,
          court_code: code?.code ?? null,
        });
      }),
      { numRuns: 500 },
    );
  });

  it("bankruptcy short forms keep the number and read office, judge and chapter suffixes", () => {
    fc.assert(
      fc.property(
        digits(2, 2),
        digits(3, 5),
        fc.option(fc.integer({ min: 1, max: 9 }).map(String), { nil: null }),
        letters(2, 4),
        fc.constantFrom("", "7", "11", "13"),
        (year, seq, office, judge, chapter) => {
          const printed = [`${year}-${seq}`, ...(office ? [office] : []), judge, ...(chapter ? [chapter] : [])].join("-");
          const parts = parseDocketNumber(printed);
          expect(parts?.docket_number).toBe(`${year}-${seq}`);
          expect(parts?.federal_dn_office_code).toBe(office);
          expect(parts?.federal_dn_judge_initials_assigned).toBe(judge);
          expect(parts?.federal_defendant_number).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });

  it("appellate numbers drop every suffix", () => {
    fc.assert(
      fc.property(digits(2, 2), digits(1, 6), fc.option(fc.constantFrom("W", "AA", "cv"), { nil: null }), (year, seq, suffix) => {
        const printed = suffix ? `${year}-${seq}-${suffix}` : `${year}-${seq}`;
        expect(parseAppellateDocketNumber(printed)?.docket_number).toBe(`${year}-${seq}`);
      }),
    );
  });

  it("a number glued to other letters, digits or a colon is not a docket number", () => {
    fc.assert(
      fc.property(fullForm, fc.constantFrom("x", "7", ":"), fc.boolean(), (dn, glue, atStart) => {
        const text = atStart ? `${glue}${dn.printed}` : `${dn.printed}${glue === ":" ? ":" : `${glue}x`}`;
        const found = firstDocketNumber(text);
        if (found !== null) expect(found).not.toBe(dn.printed);
      }),
      { numRuns: 300 },
    );
  });

  it("the matching form does not depend on judge initials, defendant, zero padding, office or district code", () => {
    fc.assert(
      fc.property(fullForm, courtCode, (dn, code) => {
        const parts = parseDocketNumber(withCode(dn.printed, code));
        expect(parts).not.toBeNull();
        const padded = normaliseCaseNumber(parts?.docket_number ?? "");
        expect(padded).toBe(`${dn.year}-${dn.type.toLowerCase()}-${Number(dn.seq)}`);
      }),
      { numRuns: 300 },
    );
  });

  it("never throws and never returns a number that is not in the text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const found = firstDocketNumber(text);
        if (found !== null) expect(text).toContain(found);
        parseDocketNumber(text);
      }),
      { numRuns: 1000 },
    );
  });
});
