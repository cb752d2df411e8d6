// The client's language (docs/i18n.md). Each language has two compiled catalogues (lingui.config.ts):
// `site`, the public site's, and `portal`, the rest. English's `site` ships in the entry bundle; every
// other catalogue is a chunk of its own, fetched when someone uses that language and, for `portal`,
// when a route of router.tsx loads (loadPortalMessages).
import { i18n, type Messages } from "@lingui/core";
import type { Language } from "@server/domains/auth/schemas.ts";
import { messages as englishSite } from "../locales/en/site.po";

/** A person's language as the server stores it (users.language). */
export type { Language };
export const LANGUAGES: readonly Language[] = ["en", "es"];

/** Each language's name in itself, for the switchers. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: "English", es: "Español" };

const STORAGE_KEY = "language";

type Part = "site" | "portal";

/** Every catalogue but English's `site`, which is in the entry bundle. */
const catalogues: Record<Exclude<`${Language}:${Part}`, "en:site">, () => Promise<{ messages: Messages }>> = {
  "en:portal": () => import("../locales/en/portal.po"),
  "es:site": () => import("../locales/es/site.po"),
  "es:portal": () => import("../locales/es/portal.po"),
};

i18n.loadAndActivate({ locale: "en", messages: englishSite });

export { i18n };

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** The first of the browser's languages we speak ("es-MX" is Spanish), else English. */
export function languageOf(tags: readonly string[]): Language {
  for (const tag of tags) {
    const base = tag.toLowerCase().split("-")[0];
    if (isLanguage(base)) return base;
  }
  return "en";
}

/** A visitor's language: the one they chose with the header's switcher, else their browser's. */
export function visitorLanguage(): Language {
  let chosen: string | null = null;
  try {
    chosen = window.localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage refused (a privacy setting): the browser's language still serves.
  }
  return isLanguage(chosen) ? chosen : languageOf(navigator.languages);
}

/** Remembers a visitor's choice on this browser, for their next visit. */
export function rememberLanguage(language: Language): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Not remembered; the page still switches.
  }
}

const loaded = new Set<string>();

/** Loads a catalogue once; after a failed fetch the next call tries again. */
async function loadCatalogue(language: Language, part: Part): Promise<void> {
  const key = `${language}:${part}` as const;
  if (key === "en:site" || loaded.has(key)) return;
  const { messages } = await catalogues[key]();
  i18n.load(language, messages);
  loaded.add(key);
}

/** Whether a portal route has been loaded: from then on a language switch loads its `portal` too. */
let portalWanted = false;
/** The language being switched to, while its catalogues load. */
let target: Language = "en";

/**
 * The portal's messages in the page's language (and in the one it is switching to), for the routes of
 * router.tsx: their loaders await it beside the route's chunk, so a route never renders without them.
 */
export async function loadPortalMessages(): Promise<void> {
  portalWanted = true;
  const languages = new Set<string>([i18n.locale, target]);
  await Promise.all([...languages].filter(isLanguage).map((language) => loadCatalogue(language, "portal")));
}

/**
 * A signed-in client's own language wins over the browser's and the switcher's: the portal and the
 * public site follow it. The firm's people keep the admin portal's English.
 */
export function followPersonLanguage(user: { language?: unknown; is_admin?: unknown } | null | undefined): void {
  if (!user || user.is_admin === true || !isLanguage(user.language) || user.language === i18n.locale) return;
  void activateLanguage(user.language);
}

/** Loads the language's messages if needed and switches the page to it; `<html lang>` follows. */
export async function activateLanguage(language: Language): Promise<void> {
  target = language;
  await loadCatalogue(language, "site");
  if (portalWanted) await loadCatalogue(language, "portal");
  // A later switch won the race: it activates its own language.
  if (target !== language) return;
  i18n.activate(language);
  document.documentElement.lang = language;
}
