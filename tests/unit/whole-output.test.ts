import { Suspense, createElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { wholeOutput } from "../../app/utils/whole-output.server";

// A page that is all ready goes out as one buffer: every chunk React writes, in order, once it ends.

const Late = ({ ready }: { ready: Promise<string> }) => {
  const thrown = (ready as Promise<string> & { value?: string }).value;
  if (thrown === undefined) throw ready.then((v) => Object.assign(ready, { value: v }));
  return createElement("p", null, thrown);
};

describe("wholeOutput", () => {
  it("gathers every chunk of a render, the parts ready late included, into one buffer", async () => {
    const ready = new Promise<string>((resolve) => setTimeout(() => resolve("counted late"), 20));
    const rows = Array.from({ length: 2_000 }, (_, i) => createElement("li", { key: i }, `row ${i}`));
    const page = createElement(
      "main",
      null,
      createElement("ul", null, rows),
      createElement(Suspense, { fallback: createElement("p", null, "counting") }, createElement(Late, { ready })),
    );
    const body = await new Promise<Buffer>((resolve, reject) => {
      const { pipe } = renderToPipeableStream(page, {
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onAllReady: () => wholeOutput(pipe).then(resolve, reject),
        onShellError: reject,
      });
    });
    const html = body.toString("utf8");
    // Far more than one of React's chunks, all of it there and in order.
    expect(body.length).toBeGreaterThan(20_000);
    expect(html.startsWith("<main><ul><li>row 0</li>")).toBe(true);
    expect(html).toContain("<li>row 1999</li></ul>");
    expect(html).toContain("<p>counted late</p>");
    expect(html).not.toContain("counting");
    expect(html.endsWith("</main>")).toBe(true);
  });

  it("fails when the stream it is given fails", async () => {
    await expect(wholeOutput((destination) => destination.destroy(new Error("socket gone")))).rejects.toThrow("socket gone");
  });
});
