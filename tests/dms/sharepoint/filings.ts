import type { DmsStoreRequest, DmsTargetError } from "../../../server/dms/dms-target";

// Filings for the SharePoint tests: each in a folder of its own, so tests never meet.

let counter = 0;

export const filing = (overrides: Partial<DmsStoreRequest> = {}): DmsStoreRequest => {
  counter++;
  return {
    folder: ["Acme Corp", `Case ${counter}`],
    name: "Notice of Electronic Filing",
    extension: "pdf",
    bytes: Buffer.from(`%PDF-1.7 notice ${counter}`),
    contentType: "application/pdf",
    properties: { CaseNumber: `1:26-cv-${counter}`, author: "Jane Filer" },
    ...overrides,
  };
};

/** The error a promise fails with; fails the test when it succeeds. */
export async function errorOf(promise: Promise<unknown>): Promise<DmsTargetError> {
  try {
    await promise;
  } catch (error) {
    return error as DmsTargetError;
  }
  throw new Error("expected a failure");
}
