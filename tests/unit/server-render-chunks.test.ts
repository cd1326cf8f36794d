import { createRequire } from "node:module";
import path from "node:path";
import { PassThrough } from "node:stream";
import { createElement, type ReactElement } from "react";
import type * as ReactDomServer from "react-dom/server";
import { describe, expect, it } from "vitest";

// patches/react-dom: React's server renderer writes each string of a page into its chunk buffer in
// place instead of through a new view of the buffer per string. The build the console runs is
// the production one, so that is the one tested.
const require = createRequire(import.meta.url);
const builds = path.join(path.dirname(require.resolve("react-dom/package.json")), "cjs");
const server = require(path.join(builds, "react-dom-server.node.production.min.js")) as typeof ReactDomServer;
// The whole-string render, which does not write through the chunk buffer: the expected markup.
const legacy = require(path.join(builds, "react-dom-server-legacy.node.production.min.js")) as typeof ReactDomServer;

function streamed(element: ReactElement): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sink = new PassThrough();
    const chunks: Buffer[] = [];
    sink.on("data", (c: Buffer) => chunks.push(c));
    sink.on("end", () => resolve(Buffer.concat(chunks)));
    const { pipe } = server.renderToPipeableStream(element, { onAllReady: () => pipe(sink), onError: reject });
  });
}

// Texts of every width: ASCII, two- and three-byte characters, pairs of surrogates, a lone one,
// and long ones that cross the 2,048-byte buffer or take the path for strings longer than it.
const texts = [
  "Case 1:26-cv-00042",
  "Société Générale c. Müller",
  "訴訟の通知",
  "Filed 📎 with 🧾",
  "broken \ud800 surrogate",
  "é".repeat(700),
  "あ".repeat(682),
  "x".repeat(5000),
  "ü".repeat(1500),
];

const page = (rows: number) =>
  createElement(
    "table",
    null,
    createElement(
      "tbody",
      null,
      Array.from({ length: rows }, (_, i) =>
        createElement(
          "tr",
          { key: i, "data-row": i },
          createElement("td", { title: texts[i % texts.length] }, texts[(i * 7) % texts.length], " · ", String(i)),
        ),
      ),
    ),
  );

describe("server render chunks", () => {
  it("streams the same markup, byte for byte, as the whole-string render", async () => {
    for (const rows of [1, 9, 40, 300]) {
      const element = page(rows);
      const bytes = await streamed(element);
      // Compared as UTF-8, as a browser receives both: the lone surrogate becomes U+FFFD in each.
      expect(bytes.toString("utf8")).toBe(Buffer.from(legacy.renderToString(element), "utf8").toString("utf8"));
    }
  });

  it("writes a page's strings without a new view of its buffer for each", async () => {
    const subarray = Uint8Array.prototype.subarray;
    let views = 0;
    Uint8Array.prototype.subarray = function (this: Uint8Array, ...args: Parameters<typeof subarray>) {
      views++;
      return subarray.apply(this, args);
    };
    try {
      // 2,000 short cells: hundreds of strings written, a few buffers filled.
      const element = createElement(
        "ul",
        null,
        Array.from({ length: 2000 }, (_, i) => createElement("li", { key: i }, `Notice ${i}`)),
      );
      const bytes = await streamed(element);
      expect(bytes.length).toBeGreaterThan(30_000);
      expect(views).toBeLessThan(50);
    } finally {
      Uint8Array.prototype.subarray = subarray;
    }
  });
});
