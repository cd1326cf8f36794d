import { describe, expect, it } from "vitest";
import { DmsTargetError } from "../../../server/dms/dms-target";
import { driveItemSchema, uploadSessionSchema } from "../../../server/dms/sharepoint/graph-types";
import { sharePointWire } from "../../../server/dms/sharepoint/sharepoint-api";
import { hostsPurpose } from "../../../server/dms/vendor-http";
import type { VendorContext } from "../../../server/dms/vendor-target";

// Vendor answers are read through zod schemas: what the client needs is there, or the filing
// fails permanently with a sentence naming what is missing, never with a TypeError further on.

const { http } = sharePointWire("share_point_cloud_credential", {} as VendorContext, hostsPurpose("SharePoint", []));
const parseAnswer = <T>(schema: Parameters<typeof http.parse<T>>[0], body: unknown, action: string) => http.parse(schema, body, action);

describe("SharePoint answers", () => {
  it("reads a drive item and leaves out what the client does not use", () => {
    const item = parseAnswer(driveItemSchema, { id: "01A", name: "Notice.pdf", webUrl: "https://x/Notice.pdf", createdBy: {} }, "reading");
    expect(item).toEqual({ id: "01A", name: "Notice.pdf", webUrl: "https://x/Notice.pdf" });
  });

  it("refuses an answer off its schema, permanently, saying what is wrong", () => {
    let error: unknown;
    try {
      parseAnswer(uploadSessionSchema, { uploadUrl: 42 }, "creating the upload session");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DmsTargetError);
    expect((error as DmsTargetError).retryable).toBe(false);
    expect((error as DmsTargetError).message).toBe(
      "SharePoint answered creating the upload session in an unexpected shape: uploadUrl: Expected string, received number",
    );
  });
});
