import { describe, expect, it } from "vitest";
import { SALESFORCE_FIELD_PATH, litifyCredentials } from "../../../app/common/resources/credentials";
import { documentTitle, filingMarker, pathOnClient, propertiesText } from "../../../server/dms/litify/litify-documents";
import { salesforceReason, toDmsError, SalesforceCallError } from "../../../server/dms/litify/litify-errors";
import { matterQuery } from "../../../server/dms/litify/litify-matters";
import { soqlField, soqlString } from "../../../server/dms/litify/litify-soql";
import { readSoql } from "./litify-soql-reader";

describe("Litify names and SOQL", () => {
  it("takes field API names and relationship paths as the matter column, nothing else", () => {
    for (const good of ["Name", "Matter_Number__c", "litify_pm__Display_Name__c", "litify_pm__Client__r.Name"])
      expect(SALESFORCE_FIELD_PATH.test(good), good).toBe(true);
    for (const bad of ["", "1Name", "Name = 'x'", "Name--", "Name OR Id", "a.b.c.d.e.f", "Name\n", "_x", "Nä"])
      expect(SALESFORCE_FIELD_PATH.test(bad), bad).toBe(false);
    expect(() => soqlField("Id FROM User --")).toThrow(/not a Salesforce field API name/);
  });

  it("refuses a matter column that is no field API name when the credential is saved, with a clear message", () => {
    const base = {
      name: "Litify",
      instance_url: "https://firm.my.salesforce.com",
      client_id: "id",
      client_secret: "secret",
      matter_column_name: "Matter_Number__c",
    };
    expect(litifyCredentials.schema.safeParse(base).success).toBe(true);
    const refused = litifyCredentials.schema.safeParse({ ...base, matter_column_name: "Name' OR Name != '" });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues).toEqual([expect.objectContaining({ path: ["matter_column_name"], message: "errors:salesforceFieldName" })]);
    expect(litifyCredentials.schema.safeParse({ ...base, matter_column_name: "" }).success).toBe(false);
    const { instance_url: _, ...noInstance } = base;
    expect(litifyCredentials.schema.safeParse(noInstance).error!.issues).toEqual([
      expect.objectContaining({ path: ["instance_url"], message: "errors:required" }),
    ]);
  });

  it("quotes values with SOQL's escapes, which Salesforce's reading gives back as they were", () => {
    for (const value of ["M-501", "O'Brien", 'say "hi"', "back\\slash", "line\nbreak\ttab\r\f\b", "%_* wildcards stay"]) {
      const parsed = readSoql(matterQuery("Matter_Number__c", value));
      expect(parsed.where).toEqual([{ field: "Matter_Number__c", value }]);
    }
    expect(soqlString("a'b")).toBe("'a\\'b'");
  });

  it("names files without folder characters and leads titles with the folder path, the name kept whole", () => {
    expect(pathOnClient("Order 1/2 \\ granted", "pdf")).toBe("Order 1_2 _ granted.pdf");
    expect(pathOnClient("Notice\u0000\n", "")).toBe("Notice");
    expect(pathOnClient("", "eml")).toBe("document.eml");
    expect(pathOnClient("x".repeat(400), "pdf")).toHaveLength(255);
    expect(documentTitle(["2_24-cv-00501", "Orders"], "0 Order")).toBe("2_24-cv-00501 / Orders / 0 Order");
    const long = documentTitle(["A".repeat(200), "B".repeat(30)], "C".repeat(40));
    expect(long).toBe(`${"B".repeat(30)} / ${"C".repeat(40)}`);
    expect(documentTitle(["F"], "N".repeat(300))).toBe("N".repeat(255));
    expect(filingMarker("rec-1", "ab")).toBe("ECFX filing rec-1 sha256:ab");
    expect(propertiesText({ Court: "E.D. Tex.", "Two\nlines": "a\nb" })).toBe("Court: E.D. Tex.\nTwo lines: a b");
    expect(propertiesText({ Long: "x".repeat(2000) })).toHaveLength(1000);
  });

  it("reads Salesforce's reasons from REST and OAuth error bodies", () => {
    expect(salesforceReason('[{"message":"No such column","errorCode":"INVALID_FIELD"}]', 400)).toEqual({ code: "INVALID_FIELD", reason: "No such column" });
    expect(salesforceReason('{"error":"invalid_grant","error_description":"authentication failure"}', 400)).toEqual({
      code: "invalid_grant",
      reason: "authentication failure",
    });
    expect(salesforceReason("<html>Down</html>", 503)).toEqual({ reason: "<html>Down</html>" });
    expect(salesforceReason("", 502)).toEqual({ reason: "HTTP 502" });
    const limit = toDmsError(new SalesforceCallError(403, "REQUEST_LIMIT_EXCEEDED", "TotalRequests Limit exceeded.", undefined, false), "the upload");
    expect(limit.retryable).toBe(true);
    const denied = toDmsError(new SalesforceCallError(403, "INSUFFICIENT_ACCESS", "no", undefined, false), "the upload");
    expect(denied).toMatchObject({ retryable: false, message: "Salesforce refused the upload: INSUFFICIENT_ACCESS: no" });
  });
});
