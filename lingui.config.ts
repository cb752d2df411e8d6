// The client's message catalogues (docs/i18n.md): `npm run i18n:extract` collects the macros' messages
// from src/ into two .po files per language; @lingui/vite-plugin compiles a catalogue when the app
// imports it, so the build ships compiled messages and no message compiler.
//
// `site` holds what the public site's first load can show (the entry bundle's files, and the public
// pages loaded without the API), and ships with the entry in English; `portal` holds the rest, loaded
// with the routes of router.tsx (src/lib/i18n.ts, loadPortalMessages). A message used in both is in both.
import { defineConfig } from "@lingui/conf";
import { formatter } from "@lingui/format-po";

const SITE = [
  "<rootDir>/src/main.tsx",
  "<rootDir>/src/app/router.tsx",
  "<rootDir>/src/app/routes/landing.tsx",
  "<rootDir>/src/app/routes/legal.tsx",
  "<rootDir>/src/app/routes/not-found.tsx",
  "<rootDir>/src/app/routes/route-error.tsx",
  "<rootDir>/src/app/routes/public-page-shell.tsx",
  "<rootDir>/src/features/landing",
  "<rootDir>/src/components",
  "<rootDir>/src/lib",
];

export default defineConfig({
  sourceLocale: "en",
  locales: ["en", "es"],
  catalogs: [
    { path: "<rootDir>/src/locales/{locale}/site", include: SITE },
    { path: "<rootDir>/src/locales/{locale}/portal", include: ["<rootDir>/src"], exclude: SITE },
  ],
  format: formatter({ lineNumbers: false }),
});
