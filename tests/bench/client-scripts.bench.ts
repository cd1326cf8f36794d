// The scripts a page makes the browser download before it is interactive, and those it loads
// after, as the console sends them (gzip at its level), from the build in public/build (run
// `npm run build` first). Run: npx tsx tests/bench/client-scripts.bench.ts
//
// Before interactive: what Remix names in the page's head as module preloads (the entry and its
// chunks, each matched route's module and its chunks; with lazy route discovery the page carries
// its routes inline, not the manifest file). After: what those modules
// import on demand (the interactive table). tests/e2e/client-scripts.spec.ts measures the same in
// a browser and holds the limits.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { COMPRESSION_LEVEL } from "../../server/console-host/console-server";

const publicDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../public");
const manifestFile = readdirSync(path.join(publicDir, "build")).find((name) => /^manifest-.*\.js$/.test(name));
if (!manifestFile) throw new Error("no build in public/build: run npm run build first");

interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, { module: string; imports?: string[] }>;
}
const manifestUrl = `/build/${manifestFile}`;
const manifest = {
  ...(JSON.parse(
    readText(manifestUrl)
      .replace(/^window\.__remixManifest=/, "")
      .replace(/;$/, ""),
  ) as Manifest),
  url: manifestUrl,
};

function readText(url: string): string {
  return readFileSync(path.join(publicDir, url), "utf8");
}

const sent = (url: string) => gzipSync(readFileSync(path.join(publicDir, url)), { level: COMPRESSION_LEVEL }).length;

/** The module preloads of a page whose matched routes are `routeIds`. */
function preloads(routeIds: string[]): Set<string> {
  const urls = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of routeIds) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`no route ${id} in the build`);
    urls.add(route.module);
    for (const url of route.imports ?? []) urls.add(url);
  }
  return urls;
}

/** Scripts imported on demand from `urls`, and theirs, not already among them. */
function onDemand(urls: Set<string>): Set<string> {
  const later = new Set<string>();
  const visit = (url: string) => {
    for (const [, target] of readText(url).matchAll(/import\("(\/build\/[^"]+\.js)"\)/g)) {
      if (!target || urls.has(target) || later.has(target)) continue;
      later.add(target);
      for (const [, chunk] of readText(target).matchAll(/from"(\/build\/[^"]+\.js)"/g)) if (chunk && !urls.has(chunk)) later.add(chunk);
      visit(target);
    }
  };
  for (const url of urls) visit(url);
  return later;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const total = (urls: Set<string>) => [...urls].reduce((sum, url) => sum + sent(url), 0);

const PAGES: [page: string, routeIds: string[], aim: number][] = [
  ["/login", ["root", "routes/login"], 200],
  ["/cases", ["root", "routes/_app", "routes/_app.$resource._index"], 280],
];

console.log(`gzip level ${COMPRESSION_LEVEL}, as the console sends them; aim from the issue: under 200 KiB (/login) and 280 KiB (/cases)`);
console.log("| page | before interactive (files) | loaded after (files) | aim |");
console.log("| --- | --- | --- | --- |");
for (const [page, routeIds, aim] of PAGES) {
  const before = preloads(routeIds);
  const after = onDemand(before);
  console.log(`| ${page} | ${kib(total(before))} (${before.size}) | ${kib(total(after))} (${after.size}) | under ${aim} KiB |`);
}
