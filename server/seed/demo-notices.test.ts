import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { demoNotices } from "./demo-notices";

// The README tells a new user how many notices the demo sends: the number the seed sends.
it("the README states the number of demo notices the seed sends", () => {
  const readme = fs.readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
  expect(readme).toContain(`start ${demoNotices().length} court notices of our own making are sent`);
});
