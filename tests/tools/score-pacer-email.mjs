#!/usr/bin/env node
// Kept in the repository so that the parser tests score a fresh clone the same way the team does.
// score-pacer-email.mjs - field-by-field scorer for parsed court notification
// emails (CM/ECF NEF, appellate NDA) against gold JSON files.
//
// Plain Node >= 18 ESM, no dependencies.
//
// Usage
//   node score-pacer-email.mjs --gold DIR --pred DIR [--names LISTFILE]
//        [--ignore FIELD[,FIELD...]] [--loose] [--worst N] [--details OUT.json]
//
//   --gold DIR      gold files NAME.json (sub-folders allowed, e.g. nef/x.json).
//                   juriscraper's own layout (tests/examples/pacer with nef/s3/
//                   and nda/) also works.
//   --pred DIR      predictions NAME.json, same JSON shape as the gold, same
//                   relative names (a flat folder of basenames also works).
//   --names FILE    one example per line ("nef/almd_1", ".json"/".txt" suffix
//                   optional, "#" comments and blank lines ignored). Without it
//                   every *.json under --gold is scored (manifest*.json skipped).
//   --ignore LIST   comma-separated field names as printed in the table, or
//                   a prefix ("email_recipients" drops both recipient rows),
//                   or a bare last name ("short_description"); ignored fields
//                   are left out of every number.
//   --loose         also ignore case and punctuation in free-text fields
//                   (case_name, description, short_description).
//   --worst N       how many worst examples to list (default 10).
//   --details FILE  write per-example results (every scored field) as JSON.
//
// Output: per-field table, exact-match rate per example, a breakdown by court
// type, docket-list checks for multi-docket notices, the worst examples, and
// as the very last line "score: X.XXX" = micro-F1 over all scored leaf fields.
// The process always exits 0 (problems are reported, and score 0.000 is
// printed when nothing could be scored).
//
// How a leaf field is counted (gold g, prediction p, after normalisation):
//   g and p both null ........ correct, not part of F1 (true negative)
//   g == p (non-null) ........ TP
//   g non-null, p null ....... FN
//   g null, p non-null ....... FP
//   g != p (both non-null) ... FP + FN ("wrong")
// Set-valued fields (recipient e-mail addresses, recipient names) count
// |G∩P| TP, |P−G| FP, |G−P| FN and are "correct" when the sets are equal.
// An example whose gold is {} (not a docket notice, the parser must return {})
// is scored on one field, result_nonempty; a non-empty gold adds
// result_nonempty=true to its other fields. A missing or unparseable
// prediction file is scored as {} (and reported), so for a non-notice a
// missing file counts as the right answer.
//
// Lists are aligned, not compared by position:
//   dockets: by docket_number, then docket_number without judge-initial
//            suffixes, then the first entry's pacer_case_id, then case_name,
//            leftovers in order. Unmatched gold dockets -> all their fields FN,
//            unmatched predicted dockets -> their non-null fields FP.
//   docket_entries (within a matched docket): by document_number, then
//            description, document_url, pacer_doc_id, pacer_seq_no, leftovers
//            in order.
//   email_recipients: flattened into a set of addresses and a set of names.
//
// Normalisation (harmless differences that are NOT errors):
//   * all strings: Unicode NFC; NBSP and other fixed-width spaces become
//     spaces, zero-width characters and BOM are removed; runs of whitespace
//     collapse to one space; trimmed; "" -> null.
//     Case, punctuation and HTML entities in text are NOT normalised (see
//     --loose), so "&lt;EDIT&gt;" vs "<EDIT>" is an error.
//   * numbers become strings; "true"/"false" strings become booleans.
//   * court_id, pacer_magic_num: lower-cased.
//   * date fields (date_filed ...): "YYYY-MM-DD..." is cut to its first 10
//     characters; "M/D/YYYY" is rewritten to YYYY-MM-DD.
//   * document_number, pacer_case_id, pacer_seq_no: an all-digit value loses
//     its leading zeros ("049" == "49" == 49). pacer_doc_id is NOT touched
//     (its digits are significant).
//   * URLs (fields ending in _url): "&amp;" -> "&".
//   * recipient addresses: lower-cased, split on commas, semicolons and
//     whitespace, surrounding <>"'()[]: stripped, only tokens with "@" kept.
//   * recipient names: lower-cased, leading/trailing punctuation stripped,
//     empty names dropped.
//   * with --loose, free-text fields are also lower-cased and stripped of
//     punctuation.
// Keys that the prediction has but no gold file uses (e.g. a product-only
// field) are ignored and listed once as a note.

import fs from "node:fs";
import path from "node:path";

// ---------------------------------------------------------------- arguments
const argv = process.argv.slice(2);
const opts = { worst: 10, ignore: [], loose: false };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const next = () => argv[++i];
  if (a === "--gold") opts.gold = next();
  else if (a === "--pred") opts.pred = next();
  else if (a === "--names") opts.names = next();
  else if (a === "--ignore") opts.ignore.push(...String(next() || "").split(",").map((s) => s.trim()).filter(Boolean));
  else if (a === "--loose") opts.loose = true;
  else if (a === "--worst") opts.worst = Math.max(0, parseInt(next(), 10) || 0);
  else if (a === "--details") opts.details = next();
  else if (a === "-h" || a === "--help") opts.help = true;
  else console.log(`note: unknown argument ${a} ignored`);
}

function finish(score, msg) {
  if (msg) console.log(msg);
  console.log(`score: ${score.toFixed(3)}`);
  process.exit(0);
}

if (opts.help || !opts.gold || !opts.pred) {
  console.log("usage: node score-pacer-email.mjs --gold DIR --pred DIR [--names LISTFILE] [--ignore F,...] [--loose] [--worst N] [--details OUT.json]");
  finish(0, opts.help ? "" : "error: --gold and --pred are required");
}
if (!isDir(opts.gold)) finish(0, `error: gold directory not found: ${opts.gold}`);
if (!isDir(opts.pred)) console.log(`warning: prediction directory not found: ${opts.pred} (every prediction counts as missing)`);

function isDir(p) {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
function isFile(p) {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- names
function listGoldNames(dir) {
  const out = [];
  const walk = (d, rel) => {
    for (const ent of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel ? `${rel}/${ent.name}` : ent.name;
      if (ent.isDirectory()) walk(path.join(d, ent.name), r);
      else if (ent.name.endsWith(".json") && !ent.name.startsWith("manifest")) out.push(r.slice(0, -5));
    }
  };
  walk(dir, "");
  return out;
}

let names;
if (opts.names) {
  let text = "";
  try {
    text = fs.readFileSync(opts.names, "utf8");
  } catch (e) {
    finish(0, `error: cannot read names file ${opts.names}: ${e.message}`);
  }
  names = text
    .split(/\r?\n/)
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean)
    .map((l) => l.replace(/\.(json|txt|eml)$/i, ""));
} else {
  names = listGoldNames(opts.gold); // exact relative paths, e.g. "nef/s3/almd_1"
}
names = [...new Set(names)];

// Where to look for NAME.json. With --names, a name such as "nef/almd_1" also
// finds juriscraper's layout (nef/s3/almd_1.json, preferred there because
// juriscraper's nef/ also holds unrelated HTML-only examples with the same
// names) and flat folders (almd_1.json); predictions are looked up the same
// way. Without --names, gold names are the exact paths found, and predictions
// may sit with or without the "s3/" level.
function candidates(dir, name, goldSide) {
  const parts = name.split("/");
  const base = parts[parts.length - 1];
  const noS3 = parts.filter((x, i) => !(x === "s3" && i === parts.length - 2)).join("/");
  const sub = noS3.split("/").slice(0, -1).join("/");
  const withS3 = sub ? `${sub}/s3/${base}` : null;
  let list;
  if (goldSide && !opts.names) list = [name];
  else if (opts.names) list = [withS3, name, noS3, base];
  else list = [name, noS3, withS3, base];
  return [...new Set(list.filter(Boolean))].map((n) => path.join(dir, `${n}.json`));
}
const resolve = (dir, name, goldSide) => candidates(dir, name, goldSide).find(isFile) || null;

function readJson(file) {
  try {
    return { ok: true, value: JSON.parse(fs.readFileSync(file, "utf8")) };
  } catch (e) {
    return { ok: false, error: e.message };
  }
}

// ---------------------------------------------------------------- normalisation
const isPlainObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const TEXT_FIELDS = new Set(["case_name", "description", "short_description"]);
const INT_FIELDS = new Set(["document_number", "pacer_case_id", "pacer_seq_no"]);
const LOWER_FIELDS = new Set(["court_id", "pacer_magic_num"]);

function cleanString(s) {
  return s
    .normalize("NFC")
    .replace(/[\u00a0\u2007\u202f\u2000-\u200a\u3000]/g, " ")
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function normScalar(field, v) {
  if (v === undefined || v === null) return null;
  if (typeof v === "boolean") return v;
  if (typeof v === "number") v = String(v);
  if (typeof v !== "string") return JSON.stringify(v); // unexpected structure: compare literally
  let s = cleanString(v);
  if (s === "") return null;
  if (s === "true") return true;
  if (s === "false") return false;
  if (LOWER_FIELDS.has(field)) s = s.toLowerCase();
  if (field === "date_filed" || field.startsWith("date_")) {
    let m;
    if ((m = s.match(/^(\d{4}-\d{2}-\d{2})/))) s = m[1];
    else if ((m = s.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/))) s = `${m[3]}-${m[1].padStart(2, "0")}-${m[2].padStart(2, "0")}`;
  }
  if (INT_FIELDS.has(field) && /^\d+$/.test(s)) s = String(BigInt(s));
  if (field.endsWith("_url")) s = s.replace(/&amp;/g, "&");
  if (opts.loose && TEXT_FIELDS.has(field)) {
    s = s.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, " ").replace(/\s+/g, " ").trim();
    if (s === "") return null;
  }
  return s;
}

function emailSet(recipients) {
  const set = new Set();
  for (const r of Array.isArray(recipients) ? recipients : []) {
    if (!isPlainObject(r)) continue;
    const addrs = Array.isArray(r.email_addresses) ? r.email_addresses : r.email_addresses != null ? [r.email_addresses] : [];
    for (const a of addrs) {
      for (const tok of String(a).split(/[\s,;]+/)) {
        const t = tok.replace(/^[<>"'()[\]:]+|[<>"'()[\]:.]+$/g, "").toLowerCase();
        if (t.includes("@")) set.add(t);
      }
    }
  }
  return set;
}

function nameSet(recipients) {
  const set = new Set();
  for (const r of Array.isArray(recipients) ? recipients : []) {
    if (!isPlainObject(r) || r.name == null) continue;
    const n = cleanString(String(r.name))
      .toLowerCase()
      .replace(/^[^\p{L}\p{N}(]+|[^\p{L}\p{N})]+$/gu, "");
    if (n) set.add(n);
  }
  return set;
}

// ---------------------------------------------------------------- schema learnt from gold
// scalar keys per level; list-valued top-level keys other than dockets /
// email_recipients are compared as a whole (one leaf).
const schema = { top: new Set(), topOther: new Set(), docket: new Set(), entry: new Set() };
function learn(g) {
  if (!isPlainObject(g)) return;
  for (const [k, v] of Object.entries(g)) {
    if (k === "dockets" || k === "email_recipients") continue;
    if (v !== null && typeof v === "object") schema.topOther.add(k);
    else schema.top.add(k);
  }
  for (const d of Array.isArray(g.dockets) ? g.dockets : []) {
    if (!isPlainObject(d)) continue;
    for (const [k, v] of Object.entries(d)) {
      if (k === "docket_entries") continue;
      if (v === null || typeof v !== "object") schema.docket.add(k);
    }
    for (const e of Array.isArray(d.docket_entries) ? d.docket_entries : []) {
      if (!isPlainObject(e)) continue;
      for (const [k, v] of Object.entries(e)) if (v === null || typeof v !== "object") schema.entry.add(k);
    }
  }
}

const extraPredKeys = new Map(); // "level.key" -> count
function noteExtra(level, obj, known) {
  if (!isPlainObject(obj)) return;
  for (const k of Object.keys(obj)) {
    if (known.has(k) || (level === "top" && (k === "dockets" || k === "email_recipients" || schema.topOther.has(k))) || (level === "docket" && k === "docket_entries")) continue;
    const key = `${level}.${k}`;
    extraPredKeys.set(key, (extraPredKeys.get(key) || 0) + 1);
  }
}

// ---------------------------------------------------------------- scoring primitives
// an --ignore entry matches a field by prefix ("email_recipients",
// "dockets[].docket_entries[]") or by its last name ("short_description")
const ignored = (field) => opts.ignore.some((p) => field.startsWith(p) || field.split(".").pop() === p);

function scoreScalar(acc, field, gRaw, pRaw, leafName = field.split(".").pop().replace(/\[\]$/, "")) {
  if (ignored(field)) return;
  const g = normScalar(leafName, gRaw);
  const p = normScalar(leafName, pRaw);
  let tp = 0, fp = 0, fn = 0, correct;
  if (g === null && p === null) correct = true;
  else if (g !== null && p !== null && g === p) (tp = 1), (correct = true);
  else {
    correct = false;
    if (g !== null) fn = 1;
    if (p !== null) fp = 1;
  }
  acc.push({ field, gold: g, pred: p, tp, fp, fn, correct });
}

function scoreSet(acc, field, G, P) {
  if (ignored(field)) return;
  let tp = 0;
  for (const x of G) if (P.has(x)) tp++;
  const fp = P.size - tp;
  const fn = G.size - tp;
  acc.push({ field, gold: [...G].sort(), pred: [...P].sort(), tp, fp, fn, correct: fp === 0 && fn === 0 });
}

// Greedy alignment: for each key function in order, pair unmatched items with
// equal non-null keys; leftovers are paired by position.
function align(gList, pList, keyFns) {
  const pairs = [];
  const gUsed = new Set();
  const pUsed = new Set();
  for (const keyFn of keyFns) {
    for (let i = 0; i < gList.length; i++) {
      if (gUsed.has(i)) continue;
      const kg = keyFn(gList[i]);
      if (kg === null || kg === undefined || kg === "") continue;
      for (let j = 0; j < pList.length; j++) {
        if (pUsed.has(j)) continue;
        if (keyFn(pList[j]) === kg) {
          pairs.push([i, j]);
          gUsed.add(i);
          pUsed.add(j);
          break;
        }
      }
    }
  }
  const gLeft = gList.map((_, i) => i).filter((i) => !gUsed.has(i));
  const pLeft = pList.map((_, j) => j).filter((j) => !pUsed.has(j));
  const n = Math.min(gLeft.length, pLeft.length);
  for (let k = 0; k < n; k++) pairs.push([gLeft[k], pLeft[k]]);
  pairs.sort((a, b) => a[0] - b[0]);
  return { pairs, gOnly: gLeft.slice(n), pOnly: pLeft.slice(n) };
}

const asList = (v) => (Array.isArray(v) ? v.filter(isPlainObject) : []);
const dnKey = (d) => normScalar("docket_number", d.docket_number);
const dnCore = (d) => {
  const s = dnKey(d);
  return s ? s.toLowerCase().replace(/(-[a-z]{1,4})+$/i, "") : null;
};
const firstEntry = (d) => asList(d.docket_entries)[0] || {};
const DOCKET_KEYS = [
  dnKey,
  dnCore,
  (d) => normScalar("pacer_case_id", firstEntry(d).pacer_case_id),
  (d) => normScalar("case_name", d.case_name),
];
const ENTRY_KEYS = ["document_number", "description", "document_url", "pacer_doc_id", "pacer_seq_no"].map((k) => (e) => normScalar(k, e[k]));

function scoreEntries(acc, gEntries, pEntries) {
  const base = "dockets[].docket_entries[]";
  const { pairs, gOnly, pOnly } = align(gEntries, pEntries, ENTRY_KEYS);
  for (const [i, j] of pairs) for (const k of schema.entry) scoreScalar(acc, `${base}.${k}`, gEntries[i][k], pEntries[j][k]);
  for (const i of gOnly) for (const k of schema.entry) scoreScalar(acc, `${base}.${k}`, gEntries[i][k], null);
  for (const j of pOnly) for (const k of schema.entry) scoreScalar(acc, `${base}.${k}`, null, pEntries[j][k]);
  for (const e of pEntries) noteExtra("entry", e, schema.entry);
}

function scoreDocket(acc, g, p) {
  for (const k of schema.docket) scoreScalar(acc, `dockets[].${k}`, g ? g[k] : null, p ? p[k] : null);
  scoreEntries(acc, asList(g && g.docket_entries), asList(p && p.docket_entries));
  if (p) noteExtra("docket", p, schema.docket);
}

function scoreExample(gold, pred) {
  const acc = [];
  const gNonEmpty = isPlainObject(gold) && Object.keys(gold).length > 0;
  const pNonEmpty = isPlainObject(pred) && Object.keys(pred).length > 0;
  scoreScalar(acc, "result_nonempty", gNonEmpty ? true : null, pNonEmpty ? true : null);
  const docketInfo = { gold: 0, pred: 0, countOk: true, setOk: true };
  if (!gNonEmpty) return { acc, docketInfo };
  const p = pNonEmpty ? pred : {};
  for (const k of schema.top) scoreScalar(acc, k, gold[k], p[k]);
  for (const k of schema.topOther) {
    if (ignored(k)) continue;
    const gv = gold[k] === undefined ? null : JSON.stringify(gold[k]);
    const pv = p[k] === undefined ? null : JSON.stringify(p[k]);
    scoreScalar(acc, k, gv, pv, k);
  }
  noteExtra("top", p, schema.top);
  const gD = asList(gold.dockets);
  const pD = asList(p.dockets);
  const { pairs, gOnly, pOnly } = align(gD, pD, DOCKET_KEYS);
  for (const [i, j] of pairs) scoreDocket(acc, gD[i], pD[j]);
  for (const i of gOnly) scoreDocket(acc, gD[i], null);
  for (const j of pOnly) scoreDocket(acc, null, pD[j]);
  scoreSet(acc, "email_recipients.emails", emailSet(gold.email_recipients), emailSet(p.email_recipients));
  scoreSet(acc, "email_recipients.names", nameSet(gold.email_recipients), nameSet(p.email_recipients));
  const gSet = new Set(gD.map(dnKey).filter(Boolean));
  const pSet = new Set(pD.map(dnKey).filter(Boolean));
  docketInfo.gold = gD.length;
  docketInfo.pred = pD.length;
  docketInfo.countOk = gD.length === pD.length;
  docketInfo.setOk = gSet.size === pSet.size && [...gSet].every((x) => pSet.has(x));
  return { acc, docketInfo };
}

function courtType(name, gold) {
  const parts = name.split("/");
  const base = parts[parts.length - 1];
  const court = (isPlainObject(gold) && typeof gold.court_id === "string" ? gold.court_id : base.split("_")[0]).toLowerCase();
  if (parts.includes("nda") || (isPlainObject(gold) && gold.appellate === true) || /^ca(\d+|fc|dc)$/.test(court)) return "appellate";
  return court.endsWith("b") ? "bankruptcy" : "district";
}

// ---------------------------------------------------------------- load
const examples = [];
const problems = [];
for (const name of names) {
  const gFile = resolve(opts.gold, name, true);
  if (!gFile) {
    problems.push(`gold missing, skipped: ${name}`);
    continue;
  }
  const g = readJson(gFile);
  if (!g.ok || !isPlainObject(g.value)) {
    problems.push(`gold unreadable or not an object, skipped: ${name}`);
    continue;
  }
  const pFile = isDir(opts.pred) ? resolve(opts.pred, name, false) : null;
  let pred = {};
  let status = "ok";
  if (!pFile) status = "missing";
  else {
    const p = readJson(pFile);
    if (!p.ok) status = "unparseable";
    else if (!isPlainObject(p.value)) status = "not-an-object";
    else pred = p.value;
  }
  examples.push({ name, gold: g.value, pred, status });
}
if (examples.length === 0) {
  problems.forEach((p) => console.log(p));
  finish(0, "error: no gold examples to score");
}
for (const ex of examples) learn(ex.gold);

// ---------------------------------------------------------------- score
const fieldStats = new Map(); // field -> {n, correct, tp, fp, fn}
const total = { tp: 0, fp: 0, fn: 0 };
const typeStats = new Map();
const multi = { n: 0, countOk: 0, setOk: 0 };
const results = [];
for (const ex of examples) {
  const { acc, docketInfo } = scoreExample(ex.gold, ex.pred);
  let tp = 0, fp = 0, fn = 0, wrong = 0;
  for (const r of acc) {
    const s = fieldStats.get(r.field) || { n: 0, correct: 0, tp: 0, fp: 0, fn: 0 };
    s.n++;
    s.correct += r.correct ? 1 : 0;
    s.tp += r.tp;
    s.fp += r.fp;
    s.fn += r.fn;
    fieldStats.set(r.field, s);
    tp += r.tp;
    fp += r.fp;
    fn += r.fn;
    if (!r.correct) wrong++;
  }
  total.tp += tp;
  total.fp += fp;
  total.fn += fn;
  const exact = wrong === 0;
  const f1 = tp + fp + fn === 0 ? 1 : (2 * tp) / (2 * tp + fp + fn);
  const type = courtType(ex.name, ex.gold);
  const ts = typeStats.get(type) || { n: 0, exact: 0, tp: 0, fp: 0, fn: 0 };
  ts.n++;
  ts.exact += exact ? 1 : 0;
  ts.tp += tp;
  ts.fp += fp;
  ts.fn += fn;
  typeStats.set(type, ts);
  if (docketInfo.gold > 1) {
    multi.n++;
    multi.countOk += docketInfo.countOk ? 1 : 0;
    multi.setOk += docketInfo.setOk ? 1 : 0;
  }
  results.push({ name: ex.name, status: ex.status, type, exact, f1, tp, fp, fn, wrong, fields: acc });
}

// ---------------------------------------------------------------- report
const f1of = (s) => (s.tp + s.fp + s.fn === 0 ? 1 : (2 * s.tp) / (2 * s.tp + s.fp + s.fn));
const fmt = (x) => (x === null ? "  -  " : x.toFixed(3));
const trunc = (v, n) => {
  const s = v === null ? "null" : typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v);
  return s.length > n ? s.slice(0, n - 1) + "…" : s;
};

const counts = results.reduce((m, r) => ((m[r.status] = (m[r.status] || 0) + 1), m), {});
console.log("PACER e-mail parse score");
console.log(`gold: ${opts.gold}`);
console.log(`pred: ${opts.pred}`);
console.log(
  `examples: ${results.length}  (predictions ok: ${counts.ok || 0}, missing: ${counts.missing || 0}, unparseable: ${(counts.unparseable || 0) + (counts["not-an-object"] || 0)})` +
    (opts.loose ? "  [--loose]" : "") +
    (opts.ignore.length ? `  [ignored: ${opts.ignore.join(", ")}]` : ""),
);
for (const p of problems) console.log(`note: ${p}`);
console.log("");

const order = (f) => {
  if (f === "result_nonempty") return 0;
  if (f.startsWith("dockets[].docket_entries[]")) return 3;
  if (f.startsWith("dockets[]")) return 2;
  if (f.startsWith("email_recipients")) return 4;
  return 1;
};
const fields = [...fieldStats.keys()].sort((a, b) => order(a) - order(b) || (a < b ? -1 : 1));
const W = Math.max(40, ...fields.map((f) => f.length)) + 1;
console.log(`${"field".padEnd(W)}${"n".padStart(5)}  ${"acc".padStart(5)}  ${"prec".padStart(5)}  ${"rec".padStart(5)}  ${"f1".padStart(5)}`);
console.log("-".repeat(W + 33));
for (const f of fields) {
  const s = fieldStats.get(f);
  const prec = s.tp + s.fp === 0 ? null : s.tp / (s.tp + s.fp);
  const rec = s.tp + s.fn === 0 ? null : s.tp / (s.tp + s.fn);
  const f1 = s.tp + s.fp + s.fn === 0 ? null : f1of(s);
  console.log(`${f.padEnd(W)}${String(s.n).padStart(5)}  ${fmt(s.correct / s.n)}  ${fmt(prec)}  ${fmt(rec)}  ${fmt(f1)}`);
}
console.log("-".repeat(W + 33));
const microP = total.tp + total.fp === 0 ? 0 : total.tp / (total.tp + total.fp);
const microR = total.tp + total.fn === 0 ? 0 : total.tp / (total.tp + total.fn);
const microF1 = total.tp + total.fp + total.fn === 0 ? 1 : f1of(total);
console.log(`${"ALL LEAF FIELDS (micro)".padEnd(W)}${"".padStart(5)}  ${"".padStart(5)}  ${fmt(microP)}  ${fmt(microR)}  ${fmt(microF1)}   (TP ${total.tp}, FP ${total.fp}, FN ${total.fn})`);
console.log("");

const nExact = results.filter((r) => r.exact).length;
console.log(`exact-match examples: ${nExact}/${results.length} = ${(nExact / results.length).toFixed(3)}`);
for (const t of ["district", "bankruptcy", "appellate"]) {
  const s = typeStats.get(t);
  if (!s) continue;
  console.log(`  ${t.padEnd(11)} examples ${String(s.n).padStart(4)}  exact ${(s.exact / s.n).toFixed(3)}  micro-F1 ${f1of(s).toFixed(3)}`);
}
if (multi.n) {
  console.log(`multi-docket notices (gold has >1 docket): ${multi.n}  docket count right: ${multi.countOk}/${multi.n}  docket-number set right: ${multi.setOk}/${multi.n}`);
}
if (extraPredKeys.size) {
  console.log(
    `note: prediction keys not in any gold file were ignored: ${[...extraPredKeys.entries()].map(([k, n]) => `${k} (${n})`).join(", ")}`,
  );
}

if (opts.worst > 0) {
  const worst = results
    .filter((r) => !r.exact)
    .sort((a, b) => a.f1 - b.f1 || b.wrong - a.wrong || (a.name < b.name ? -1 : 1))
    .slice(0, opts.worst);
  console.log("");
  console.log(worst.length ? `worst examples (up to ${opts.worst}):` : "worst examples: none (every example matches exactly)");
  for (const r of worst) {
    console.log(`  ${r.name}  f1 ${r.f1.toFixed(3)}  wrong fields ${r.wrong}${r.status !== "ok" ? `  [prediction ${r.status}]` : ""}`);
    for (const f of r.fields.filter((x) => !x.correct).slice(0, 4)) {
      console.log(`      ${f.field}: gold ${trunc(f.gold, 60)}  pred ${trunc(f.pred, 60)}`);
    }
  }
}

if (opts.details) {
  try {
    fs.writeFileSync(
      opts.details,
      JSON.stringify(
        { score: Number(microF1.toFixed(6)), exact_rate: nExact / results.length, examples: results.map(({ fields, ...rest }) => ({ ...rest, fields })) },
        null,
        1,
      ),
    );
    console.log(`\ndetails written to ${opts.details}`);
  } catch (e) {
    console.log(`\nnote: could not write details: ${e.message}`);
  }
}
console.log("");
finish(microF1);
