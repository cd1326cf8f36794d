import { describe, expect, it } from "vitest";
import { type DeliveryDocument, chooseDelivery } from "./delivery";

const doc = (number: number, size: number, extra: Partial<DeliveryDocument> = {}): DeliveryDocument => ({
  id: `d${number}`,
  number,
  name: `Document ${number}`,
  fileId: `blob${number}`,
  size,
  contentType: "application/pdf",
  dmsRecordId: null,
  dmsLink: null,
  ...extra,
});

const summary = (chosen: ReturnType<typeof chooseDelivery>) => ({
  attached: chosen.attached.map((d) => d.id),
  links: chosen.links.map((l) => `${l.document.id}:${l.kind}`),
});

describe("what a notice mail carries", () => {
  const documents = [doc(0, 600), doc(1, 500), doc(2, 300), doc(3, 100, { fileId: null })];

  it("PDF attaches in order within the size limit and links the rest; unfetched documents get nothing", () => {
    expect(summary(chooseDelivery(documents, "PDF", 1000))).toEqual({ attached: ["d0", "d2"], links: ["d1:web"] });
    expect(chooseDelivery(documents, "PDF", 1000).bytes).toBe(900);
    expect(summary(chooseDelivery(documents, "PDF", 0))).toEqual({ attached: [], links: ["d0:web", "d1:web", "d2:web"] });
  });

  it("WEB_LINK only links", () => {
    expect(summary(chooseDelivery(documents, "WEB_LINK", 10_000))).toEqual({ attached: [], links: ["d0:web", "d1:web", "d2:web"] });
  });

  it("DMS_LINK links filed copies and falls back to web links", () => {
    const filed = [doc(0, 600, { dmsRecordId: "r0" }), doc(1, 500)];
    expect(summary(chooseDelivery(filed, "DMS_LINK", 10_000))).toEqual({ attached: [], links: ["d0:dms", "d1:web"] });
  });

  it("PDF_AND_DMS_LINK attaches and links filed copies too", () => {
    const filed = [doc(0, 600, { dmsRecordId: "r0" }), doc(1, 500)];
    expect(summary(chooseDelivery(filed, "PDF_AND_DMS_LINK", 10_000))).toEqual({ attached: ["d0", "d1"], links: ["d0:dms"] });
    expect(summary(chooseDelivery(filed, "PDF_AND_DMS_LINK", 700))).toEqual({ attached: ["d0"], links: ["d0:dms", "d1:web"] });
  });
});
