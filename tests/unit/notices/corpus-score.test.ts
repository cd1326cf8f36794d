// Scores the parser on the real court e-mails in tests/fixtures/pacer-email with the scorer script,
// exactly as an operator would: predictions are written as NAME.json files in
// nef/ and nda/ folders and the scorer is run with node.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { goldShapeOf, parseNoticeEmail, type ParsedEmail } from "../../../server/notices";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const corpus = path.join(projectRoot, "tests/fixtures/pacer-email");
const scorer = path.join(projectRoot, "tests/tools/score-pacer-email.mjs");

const MIN_SCORE = 0.97;

interface Example {
  name: string;
  sub: string;
  raw: Buffer;
  gold: Record<string, unknown>;
}

function loadCorpus(): Example[] {
  const out: Example[] = [];
  for (const sub of ["nef", "nda"]) {
    for (const file of readdirSync(path.join(corpus, sub)).sort()) {
      if (!file.endsWith(".txt")) continue;
      const name = file.slice(0, -4);
      out.push({
        name,
        sub,
        raw: readFileSync(path.join(corpus, sub, file)),
        gold: JSON.parse(readFileSync(path.join(corpus, sub, `${name}.json`), "utf8")) as Record<string, unknown>,
      });
    }
  }
  return out;
}

describe("court e-mail corpus", () => {
  const predDir = mkdtempSync(path.join(tmpdir(), "ecfx-pred-"));
  afterAll(() => rmSync(predDir, { recursive: true, force: true }));

  it("is present in the repository", () => {
    expect(existsSync(corpus), `corpus not found at ${corpus}`).toBe(true);
    expect(existsSync(scorer), `scorer not found at ${scorer}`).toBe(true);
  });

  it(`scores >= ${MIN_SCORE} with the scorer`, async () => {
    const examples = loadCorpus();
    expect(examples).toHaveLength(92);
    const results: [Example, ParsedEmail][] = [];
    for (const ex of examples) {
      const result = await parseNoticeEmail(ex.raw);
      results.push([ex, result]);
      mkdirSync(path.join(predDir, ex.sub), { recursive: true });
      writeFileSync(path.join(predDir, ex.sub, `${ex.name}.json`), JSON.stringify(goldShapeOf(result), null, 2));
    }

    // Every gold notice is recognised as a notice, every gold {} is not.
    for (const [ex, result] of results) {
      const goldIsNotice = Object.keys(ex.gold).length > 0;
      expect(result.kind === "notice", `${ex.sub}/${ex.name}: ${result.kind}`).toBe(goldIsNotice);
    }

    const { stdout } = await promisify(execFile)(process.execPath, [scorer, "--gold", corpus, "--pred", predDir], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const lines = stdout.trim().split("\n");
    const last = lines[lines.length - 1] ?? "";
    const match = /^score: (\d+\.\d+)$/.exec(last);
    expect(match, `unexpected scorer output:\n${stdout}`).not.toBeNull();
    const score = Number(match?.[1]);
    expect(stdout).toContain("predictions ok: 92");
    expect(score, stdout).toBeGreaterThanOrEqual(MIN_SCORE);
  });
});
