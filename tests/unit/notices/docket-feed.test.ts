import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { docketFeedXml } from "../../../server/courts/simulator";
import { docketEntryNotice, entryDocketNumber, parseDocketFeed } from "../../../server/notices/docket-feed";
import { parseKeptDocketEntry } from "../../../server/notices/docket-feed";
import { normaliseCaseNumber } from "../../../server/resources/case-number";

// The courts' docket feeds as ECFX Track reads them, against juriscraper's expected parses.

const fixtures = path.join(import.meta.dirname, "../../fixtures/pacer-rss");

interface GoldEntry {
  short_description: string;
  pacer_doc_id: string | null;
  pacer_seq_no: string | null;
}
interface GoldDocket {
  docket_number: string;
  docket_entries: GoldEntry[];
}

/** docket | descriptions | document id | sequence: one entry as both sides read it, whatever the order or repetition of its types. */
const signature = (docket: string, e: GoldEntry) =>
  [
    normaliseCaseNumber(docket),
    [...new Set(e.short_description.split(" AND ").map((d) => d.trim()))].sort().join(" AND "),
    e.pacer_doc_id,
    e.pacer_seq_no,
  ].join(" | ");

describe.each([
  ["sdny_1", "nysd"],
  ["nysb_1", "nysb"],
  ["ca10", "ca10"],
])("the docket feed %s", (name, court) => {
  const xml = readFileSync(path.join(fixtures, `${name}.xml`), "latin1");
  const gold = JSON.parse(readFileSync(path.join(fixtures, `${name}.json`), "utf8")) as GoldDocket[];
  const entries = parseDocketFeed(xml);

  it("reads every entry the expected parse has, with its court, docket, description and document", () => {
    const read = new Set(
      entries.map((entry) => {
        const notice = docketEntryNotice(entry).parsed;
        if (notice.kind !== "notice") throw new Error("not read as a notice");
        const e = notice.notice.dockets[0]!.docket_entries[0]!;
        return signature(entryDocketNumber(entry), {
          short_description: e.short_description ?? "",
          pacer_doc_id: e.pacer_doc_id,
          pacer_seq_no: e.pacer_seq_no,
        });
      }),
    );
    const expected = gold.flatMap((d) => d.docket_entries.map((e) => signature(d.docket_number, e)));
    expect(expected.filter((s) => !read.has(s))).toEqual([]);
    expect(new Set(entries.map((e) => e.courtId))).toEqual(new Set([court]));
  });

  it("reads an entry listed once per type as one entry, and keeps it readable on its own", () => {
    expect(entries).toHaveLength(gold.reduce((n, d) => n + d.docket_entries.length, 0));
    expect(new Set(entries.map((e) => e.key)).size).toBe(entries.length);
    for (const entry of entries.slice(0, 20)) expect(parseKeptDocketEntry(Buffer.from(entry.raw, "utf8"))).toEqual(docketEntryNotice(entry));
  });
});

describe("the court simulator's feed", () => {
  it("is read back as it was published", () => {
    const publishedAt = Date.UTC(2026, 0, 2, 3, 4, 5);
    const xml = docketFeedXml("nysd", [
      {
        docketNumber: "1:18-cv-03365",
        caseName: "Chau v. Donovan & Co <et al>",
        shortDescription: "Notice of Appearance",
        documentNumber: "3",
        documentId: "127122264358",
        pacerCaseId: "492165",
        sequence: "10",
        publishedAt,
      },
    ]);
    const [entry] = parseDocketFeed(xml);
    expect(entry).toMatchObject({
      courtId: "nysd",
      docketNumber: "1:18-cv-03365",
      caseName: "Chau v. Donovan & Co <et al>",
      shortDescription: "Notice of Appearance",
      documentNumber: "3",
      documentUrl: "https://ecf.nysd.uscourts.gov/doc1/127122264358?caseid=492165&de_seq_num=10",
      publishedAt,
    });
  });

  it("leaves out entries it cannot read instead of failing", () => {
    expect(parseDocketFeed("<rss><channel><item><title></title></item></channel></rss>")).toEqual([]);
    expect(parseDocketFeed("not a feed")).toEqual([]);
    expect(parseKeptDocketEntry(Buffer.from("garbage")).parsed.kind).toBe("malformed");
  });
});
