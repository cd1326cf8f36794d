import { afterAll, describe, it } from "vitest";
import { LATE_POINTS, crashAtEachPoint } from "./crash-stages";
import { type Backend, backends } from "./harness";
import { TestBed } from "./product-processes";

// The product killed at the later stage boundaries of the pipeline and while two filings race
// into one folder, then restarted (crash-stages.ts).

describe.each(backends)("crash at the later stage boundaries and in a race to one folder (%s)", (backend: Backend) => {
  const bed = new TestBed("crash-stages-late");
  afterAll(() => bed.close());

  it("finishes every acknowledged notice, files each document once and mails each recipient once", async () => {
    await crashAtEachPoint(bed, backend, LATE_POINTS, true);
  }, 600_000);
});
