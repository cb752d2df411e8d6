// Zod tests whether it may compile parsers with `new Function` when its first object schema is
// built. Under our CSP (script-src 'self') Chrome reports that probe as a violation, even though
// zod catches the error; jitless mode skips the probe. Zod reads its settings from this global,
// which it keeps when already set before zod loads (see its global-config tests), so the landing
// page's first script does not have to carry zod, which only the lazy chunks use. main.tsx
// imports this module first, before any module or lazy chunk builds a schema.
const settings = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(settings.__zod_globalConfig ??= {}).jitless = true;
