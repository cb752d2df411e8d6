// Lint for the whole repository. Formatting is Prettier's job (.prettierrc.json); these rules are about
// correctness and the architecture: features do not import each other, src/app sits above src/features
// above the shared code (src/components, src/lib), and the client takes only schemas and types from the
// server, through the "@server/" alias (tsconfig.json). docs/architecture.md ("What may import what") says
// these rules in words. Any warning fails `npm run lint`.
//
// typescript-eslint needs TypeScript 6's compiler API, which TypeScript 7 no longer has: package.json's
// `typescript` is therefore @typescript/typescript6 (what `require("typescript")` finds), while `tsc` is
// TypeScript 7 from the `@typescript/native` alias. Check with `npx tsc -v` (7.x) after changing either.
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import checkFile from "eslint-plugin-check-file";
import { importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

const features = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default defineConfig(
  globalIgnores(["dist/", "test-output/", "node_modules/", "public/"]),
  js.configs.recommended,
  tseslint.configs.recommended,
  importX.flatConfigs.recommended,
  importX.flatConfigs.typescript,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: {
      // For the editor: a loop of value imports shows as you type. `npm run lint` turns it off (it was a third of
      // ESLint's time) and runs scripts/check-import-cycles.mjs instead, which finds every loop, type imports
      // included (import-x 4.18 skips `import type` and `{ type X }` imports, with no option to count them).
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-self-import": "error",
      "import-x/no-useless-path-segments": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // tsc already checks that imports resolve and name real exports; these repeat it slowly (typescript-eslint's
      // performance guide). fast-check, nodemailer and superjson document their default export as the way in.
      "import-x/no-unresolved": "off",
      "import-x/namespace": "off",
      "import-x/default": "off",
      "import-x/no-named-as-default-member": "off",
    },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks, "check-file": checkFile },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "check-file/filename-naming-convention": ["error", { "src/**/*.{ts,tsx,css}": "KEBAB_CASE" }],
      "check-file/folder-naming-convention": ["error", { "src/**/": "KEBAB_CASE" }],
      "import-x/no-restricted-paths": [
        "error",
        {
          basePath: import.meta.dirname,
          zones: [
            // bulletproof-react: a feature is self-contained; what two features share moves to shared code.
            ...features.map((feature) => ({
              target: `./src/features/${feature}`,
              from: "./src/features",
              except: [`./${feature}`],
              message: "Features do not import each other: move what they share to src/components or src/lib.",
            })),
            { target: "./src/features", from: "./src/app", message: "src/app composes features, not the other way round." },
            {
              target: ["./src/components", "./src/lib"],
              from: ["./src/features", "./src/app"],
              message: "Shared code (src/components, src/lib) does not depend on features or the app.",
            },
          ],
        },
      ],
    },
  },
  {
    // The client bundle may hold the server's zod schemas and constants, never its runtime; type-only imports
    // vanish from the bundle, so `import type { AppRouter }` from a router is fine.
    files: ["src/**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^(\\.\\./)+server/", message: 'Import the server through the "@server/" alias.' },
            {
              regex: "^@server/(?!domains/[^/]+/(schemas|messages|defaults|public-data|firm-clock|holidays)\\.ts$)",
              allowTypeImports: true,
              message:
                "From the server the client imports only schemas, messages, defaults, the firm clock and its holidays and (with `import type`) types.",
            },
          ],
        },
      ],
    },
  },
  {
    // Nothing on the server runs in the browser bundle's code, and migrations are frozen in time: they never import
    // app code (docs/architecture.md, "What may import what").
    files: ["server/**/*.ts", "migrations/**/*.ts"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          basePath: import.meta.dirname,
          zones: [
            { target: "./server", from: "./src", message: "The server does not import the client." },
            { target: "./migrations", from: ["./server", "./src"], message: "Migrations never import app code." },
          ],
        },
      ],
    },
  },
  {
    // No server file over 500 lines (docs/architecture.md, "One domain"): a larger domain splits its service or its
    // queries by audience. db/types.ts is the one exception: the Database interface, a table per interface, is the
    // schema's type as a generator would write it, and is read as a list rather than as logic.
    files: ["server/**/*.ts"],
    ignores: ["server/db/types.ts"],
    rules: { "max-lines": ["error", { max: 500, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Migrations are written against `Kysely<any>` on purpose: the schema they see is the one of their day.
    files: ["migrations/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
