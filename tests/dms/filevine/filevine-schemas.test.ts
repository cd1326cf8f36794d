import { describe, expect, it } from "vitest";
import { DmsTargetError } from "../../../server/dms/dms-target";
import { parsed } from "../../../server/dms/filevine/filevine-http";
import { documentList, projectAnswer, userOrgs } from "../../../server/dms/filevine/filevine-schemas";

// FileVine's answers are read through one schema each, with the names FileVine's reference
// declares (PascalCase), matched without regard to case; an answer of another shape fails the
// call for good, naming it, instead of filing on a guess.

describe("FileVine's answers", () => {
  it("reads the reference's names, in any case, and its { Native } identifiers", () => {
    const pascal = { ProjectId: { Native: 12, Partner: null }, Number: "M-1", ProjectName: "A v. B", RootDocFolderId: { Native: 99 } };
    const camel = { projectId: { native: 12 }, number: "M-1", projectName: "A v. B", rootDocFolderId: { native: 99 } };
    for (const answer of [pascal, camel])
      expect(projectAnswer.parse(answer)).toMatchObject({ ProjectId: "12", Number: "M-1", ProjectName: "A v. B", RootDocFolderId: "99" });
    const page = documentList.parse({ Items: [{ DocumentId: { Native: 5 }, Filename: "a.pdf", Hashtags: ["#ECF", "ecfx1a"] }], HasMore: false });
    expect(page.Items[0]).toMatchObject({ DocumentId: "5", Filename: "a.pdf", Hashtags: ["ecf", "ecfx1a"], UploaderId: null });
  });

  it("refuses an answer without what ECFX reads, permanently, naming the call", () => {
    let error: unknown;
    try {
      parsed(userOrgs, { User: { UserId: { Native: 1 } }, Orgs: [] }, "to name the token's org");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DmsTargetError);
    expect(error).toMatchObject({ retryable: false });
    expect((error as Error).message).toMatch(/^FileVine answered to name the token's org in an unexpected form \(Orgs: /);
    expect(() => parsed(projectAnswer, { ProjectId: "12" }, "x")).toThrow(DmsTargetError);
  });
});
