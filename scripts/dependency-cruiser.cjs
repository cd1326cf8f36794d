// Which code may import which, checked by `npm run lint` (dependency-cruiser).
//
// The console (app/) and the server (server/) meet in one folder, app/common/: the entity
// declarations and the few modules both sides need. The server may import nothing else of app/;
// the console never imports the server; app/common/ stands on nothing else of app/. What only
// one side uses lives on that side; the binary messages' codec lives beside them in proto/.
//
// Inside server/, each folder is a floor and may import only the floors below it. The list is the
// one place the order is written; move a module down rather than reach up. Every folder of server/
// is a floor but server/types (declarations of untyped packages, imported by nobody).
const SERVER_FLOORS = [
  "lib",
  "outbound",
  "config",
  "db",
  "jurisdictions",
  "auth",
  "extraction",
  "notices",
  "stored-mail",
  "mail",
  "firm",
  "queue",
  "billing",
  "webhooks",
  "inbox",
  "walls",
  "dashboard",
  "analytics",
  "blobs",
  "dms",
  "courts",
  "filing",
  "notify",
  "resources",
  "pipeline",
  "scim",
  "sso",
  "api",
  "console-host",
  "seed",
  "job-handlers",
  "bootstrap",
  "cli",
  "main",
];

// A floor is a folder (server/db/…) or a file at the top (server/config.ts).
const floorPath = (floors) => `^server/(${floors.join("|")})(/|\\.ts$)`;
// Tests arrange whatever a case needs; the layering speaks of the product's own modules.
const notATest = "\\.test\\.tsx?$";

const floorRules = SERVER_FLOORS.slice(0, -1).map((floor, index) => ({
  name: `server-floor-${floor}`,
  comment: `server/${floor} may import only the floors below it: ${SERVER_FLOORS.slice(0, index).join(", ") || "none"}`,
  severity: "error",
  from: { path: floorPath([floor]), pathNot: notATest },
  to: { path: floorPath(SERVER_FLOORS.slice(index + 1)) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "console-imports-server",
      comment: "app/ never imports server/: what both need lives in app/common/",
      severity: "error",
      from: { path: "^app/" },
      to: { path: "^server/" },
    },
    {
      name: "server-imports-console",
      comment: "server/ imports only app/common/ of the console",
      severity: "error",
      from: { path: "^server/" },
      to: { path: "^app/", pathNot: "^app/common/" },
    },
    {
      name: "shared-imports-console",
      comment: "app/common/ stands on nothing else of app/, so the server never reaches the console through it",
      severity: "error",
      from: { path: "^app/common/" },
      to: { path: "^app/", pathNot: "^app/common/" },
    },
    {
      name: "shared-is-shared",
      comment:
        "app/common/ holds what both sides use: a module only one side's server code needs lives on that side (app/utils or server/), the messages' codec in proto/",
      severity: "error",
      from: {},
      to: { path: "^app/common/.*\\.server\\.tsx?$" },
    },
    {
      name: "proto-stands-alone",
      comment: "proto/ (the binary messages and their codec) imports nothing of the console or the server, so both may use it",
      severity: "error",
      from: { path: "^proto/" },
      to: { path: "^(app|server)/" },
    },
    {
      name: "server-context-is-types",
      comment: "server/context.ts names what a handler is given; it may import types only, so every floor can use it",
      severity: "error",
      from: { path: "^server/context\\.ts$" },
      to: { path: "^server/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "signed-out-pages-draw-with-the-document-parts",
      comment:
        "The document and the signed-out pages take Mantine's parts from app/utils/mantine-document.ts: reaching app/utils/mantine.ts would send every part the signed-in pages draw to them (decision 080)",
      severity: "error",
      from: { path: "^app/(root|routes/(login|password-forgot|password-reset|\\$))\\.tsx$" },
      to: { path: "^app/utils/mantine\\.ts$", reachable: true },
    },
    {
      name: "parsers-read-no-database",
      comment:
        "server/notices/ reads a court e-mail and says what it holds, without the database: the stored message and its parse live in server/stored-mail/",
      severity: "error",
      from: { path: "^server/notices/", pathNot: notATest },
      to: { path: "^(server/db/|node_modules/kysely/)" },
    },
    ...floorRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|build|public)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    // Stable across package versions: only the modules of this repository matter here.
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
