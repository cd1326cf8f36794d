import { afterAll, describe, it } from "vitest";
import { EARLY_POINTS, crashAtEachPoint } from "./crash-stages";
import { type Backend, backends } from "./harness";
import { TestBed } from "./product-processes";

// The product killed at the earlier stage boundaries of the pipeline, then restarted (crash-stages.ts).

describe.each(backends)("crash at the earlier stage boundaries (%s)", (backend: Backend) => {
  const bed = new TestBed("crash-stages");
  afterAll(() => bed.close());

  it("finishes every acknowledged notice, files each document once and mails each recipient once", async () => {
    await crashAtEachPoint(bed, backend, EARLY_POINTS, false);
  }, 600_000);
});
