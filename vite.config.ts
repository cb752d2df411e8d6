import { lingui } from "@lingui/vite-plugin";
import babel from "@rolldown/plugin-babel";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { compression, defineAlgorithm } from "vite-plugin-compression2";

const apiServer = "http://localhost:3000";

export default defineConfig({
  plugins: [
    react(),
    // Lingui's macros (t, Trans, Plural) become catalogue lookups, run by Babel on the files that import
    // them only. Its native transform (`lingui({ macroTransform: true })`) needs an optional binary that
    // npm leaves out when the npm running `npm ci` is on an older Node than the package's engines (docs/i18n.md).
    babel({
      presets: [
        {
          preset: { plugins: ["@lingui/babel-plugin-lingui-macro"] },
          rolldown: { filter: { code: /from ["']@lingui\/(?:core|react)\/macro["']/ } },
        },
      ],
    }),
    // Compiles a language's .po catalogue when the app imports it (src/lib/i18n.ts).
    lingui({ failOnCompileError: true }),
    tailwindcss(),
    // Compressed once here at the highest levels instead of on every request (server/app.ts).
    // index.html is left out: the server fills in the landing page's content per request.
    compression({
      include: /\.(m?js|css|svg|json)$/,
      algorithms: [defineAlgorithm("brotliCompress"), defineAlgorithm("gzip", { level: 9 })],
    }),
  ],
  // "@/" and "@server/" come from tsconfig.json's paths, so the aliases are written once.
  resolve: {
    tsconfigPaths: true,
    alias: [
      { find: /^use-sync-external-store\/shim$/, replacement: fileURLToPath(new URL("./src/lib/use-sync-external-store-shim.ts", import.meta.url)) },
    ],
  },
  build: {
    // The Express server serves this folder in production.
    outDir: "dist/client",
    emptyOutDir: true,
    // Every browser Vite 8 builds for but Safari 16 preloads modules itself; there the links are only
    // hints it skips, and the scripts still load. The polyfill's bytes went to the language catalogue.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      "/api": apiServer,
      "/trpc": apiServer,
    },
  },
  preview: {
    proxy: {
      "/api": apiServer,
      "/trpc": apiServer,
    },
  },
});
