// The client's message catalogue (docs/i18n.md): `npm run i18n:extract` collects the macros' messages
// from src/ into one .po file per language; @lingui/vite-plugin compiles a catalogue when the app
// imports it, so the build ships compiled messages and no message compiler.
import { defineConfig } from "@lingui/conf";
import { formatter } from "@lingui/format-po";

export default defineConfig({
  sourceLocale: "en",
  locales: ["en", "es"],
  catalogs: [{ path: "<rootDir>/src/locales/{locale}/messages", include: ["<rootDir>/src"] }],
  format: formatter({ lineNumbers: false }),
});
