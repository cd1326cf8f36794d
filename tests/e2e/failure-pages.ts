import fs from "node:fs";
import type { Reporter, TestCase, TestResult } from "@playwright/test/reporter";

// A browser test that fails on another machine leaves only its console output: the files under
// test-results are gone with the machine. This reporter prints, after the summary, what the page
// showed when each failed test ended (Playwright's error context: the page's accessibility tree),
// so a rare failure can be read from the output alone.

const MAX_LINES = 80;

export default class FailurePages implements Reporter {
  private readonly pages: { title: string; text: string }[] = [];

  onTestEnd(test: TestCase, result: TestResult) {
    if (result.status === "passed" || result.status === "skipped") return;
    const context = result.attachments.find((a) => a.name === "error-context" && a.path);
    if (!context?.path || !fs.existsSync(context.path)) return;
    const text = fs.readFileSync(context.path, "utf8");
    // Only the page's tree: the errors and the test's source are in the summary already.
    const snapshot = /```yaml\n([\s\S]*?)```/.exec(text)?.[1];
    if (!snapshot) return;
    this.pages.push({ title: test.titlePath().filter(Boolean).join(" › "), text: snapshot });
  }

  onEnd() {
    for (const page of this.pages) {
      const lines = page.text.split("\n");
      const shown = lines.slice(0, MAX_LINES);
      if (lines.length > MAX_LINES) shown.push(`… ${lines.length - MAX_LINES} more lines`);
      console.log(`\nThe page when "${page.title}" failed:\n${shown.join("\n")}`);
    }
  }

  printsToStdio() {
    return true;
  }
}
