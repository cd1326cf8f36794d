import { describe, expect, it } from "vitest";
import { DmsTargetError } from "../../../server/dms/dms-target";
import { driveItemSchema, uploadSessionSchema } from "../../../server/dms/sharepoint/graph-types";
import { parseAnswer } from "../../../server/dms/sharepoint/sharepoint-api";

// Vendor answers are read through zod schemas: what the client needs is there, or the filing
// fails permanently with a sentence naming what is missing, never with a TypeError further on.

describe("SharePoint answers", () => {
  it("reads a drive item and leaves out what the client does not use", () => {
    const item = parseAnswer("kind", driveItemSchema, { id: "01A", name: "Notice.pdf", webUrl: "https://x/Notice.pdf", createdBy: {} }, "reading");
    expect(item).toEqual({ id: "01A", name: "Notice.pdf", webUrl: "https://x/Notice.pdf" });
  });

  it("refuses an answer off its schema, permanently, saying what is wrong", () => {
    let error: unknown;
    try {
      parseAnswer("share_point_cloud_credential", uploadSessionSchema, { uploadUrl: 42 }, "creating the upload session");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DmsTargetError);
    expect((error as DmsTargetError).retryable).toBe(false);
    expect((error as DmsTargetError).message).toBe(
      "SharePoint's answer creating the upload session is not what its API describes: uploadUrl: Expected string, received number",
    );
  });
});
