/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverDependenciesToBundle: [/^@monaco-editor\//],
  // v3_routeConfig is Vite-only (it needs routes.ts evaluated by Vite); the classic compiler
  // keeps file-system routes. See docs/decisions/002-remix-classic-compiler.md.
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
  },
};
