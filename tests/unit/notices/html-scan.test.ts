// The fast HTML pass reports the same text, tags and link targets as htmlParser2's Tokenizer,
// which the parser used before, on the court e-mails (whole and cut short) and on generated
// markup full of the awkward cases: unfinished tags, quoted ">", raw-text elements,
// comments, declarations and character references.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { Tokenizer } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { scanHtml } from "../../../server/notices/html-scan";
import { readMail } from "../../../server/notices/mime";

type Event = ["text", string] | ["open", string, string | null, boolean] | ["close", string];

/** Adds an event, joining neighbouring text. */
function pushEvent(events: Event[], event: Event): void {
  const last = events[events.length - 1];
  if (event[0] === "text" && last?.[0] === "text") last[1] += event[1];
  else if (event[0] !== "text" || event[1]) events.push(event);
}

function scanned(html: string): Event[] {
  const events: Event[] = [];
  scanHtml(html, {
    text: (text) => pushEvent(events, ["text", text]),
    openTag: (name, href, selfClosing) => pushEvent(events, ["open", name, href, selfClosing]),
    closeTag: (name) => pushEvent(events, ["close", name]),
  });
  return events;
}

/** The same events read from htmlparser2's Tokenizer. */
function tokenized(html: string): Event[] {
  const events: Event[] = [];
  let tag = "";
  let attribute = "";
  let value = "";
  let href: string | null = null;
  const text = (t: string) => pushEvent(events, ["text", t]);
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      ontext: (start, end) => text(html.slice(start, end)),
      ontextentity: (codepoint) => text(String.fromCodePoint(codepoint)),
      onopentagname(start, end) {
        tag = html.slice(start, end).toLowerCase();
        href = null;
      },
      onattribname(start, end) {
        attribute = html.slice(start, end).toLowerCase();
        value = "";
      },
      onattribdata(start, end) {
        value += html.slice(start, end);
      },
      onattribentity(codepoint) {
        value += String.fromCodePoint(codepoint);
      },
      onattribend() {
        if (tag === "a" && attribute === "href") href = value;
      },
      onopentagend: () => pushEvent(events, ["open", tag, href, false]),
      onselfclosingtag: () => pushEvent(events, ["open", tag, href, true]),
      onclosetag: (start, end) => pushEvent(events, ["close", html.slice(start, end).toLowerCase()]),
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onend() {},
      onprocessinginstruction() {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  return events;
}

const corpusDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../fixtures/pacer-email");
const corpusHtml = ["nef", "nda"].flatMap((sub) =>
  readdirSync(path.join(corpusDir, sub))
    .filter((f) => f.endsWith(".txt"))
    .map((f) => readMail(readFileSync(path.join(corpusDir, sub, f))).html)
    .filter((html): html is string => html !== null),
);

const PIECES = [
  "<",
  ">",
  "/",
  "!",
  "-",
  '"',
  "'",
  "=",
  "&",
  " ",
  "\n",
  ";",
  "#",
  "a",
  "A",
  "p",
  "br",
  "td",
  "href",
  "HREF",
  "script",
  "style",
  "title",
  "xmp",
  "[CDATA[",
  "]]>",
  "?",
  "&amp;",
  "&nbsp;",
  "&nbsp",
  "&not",
  "&notin;",
  "&#65;",
  "&#128;",
  "&#x41;",
  "&#0;",
  "&#55296;",
  "<!--",
  "<!>",
  "<!-",
  "<?",
  "-->",
];

describe("HTML pass", () => {
  it("reads the court e-mails' HTML as htmlparser2's Tokenizer does", () => {
    expect(corpusHtml.length).toBeGreaterThan(50);
    for (const html of corpusHtml) expect(scanned(html)).toEqual(tokenized(html));
  });

  it("reads HTML cut off anywhere as the Tokenizer does", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: corpusHtml.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true }), (i, at) => {
        const html = corpusHtml[i] ?? "";
        const cut = html.slice(0, Math.floor(at * html.length));
        expect(scanned(cut)).toEqual(tokenized(cut));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps a title's unfinished tag after a reference as text, as the Tokenizer does", () => {
    for (const html of ["<title>&#x41;<HREF", "<title>&not<b", "<title>&#128;x<a href", "<title><&nbsp;"]) expect(scanned(html)).toEqual(tokenized(html));
  });

  it("reads generated markup with every awkward case as the Tokenizer does", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }), (pieces) => {
        const html = pieces.join("");
        expect(scanned(html)).toEqual(tokenized(html));
      }),
      { numRuns: 3000 },
    );
  });
});
