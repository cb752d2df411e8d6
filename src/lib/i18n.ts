// The client's language (docs/i18n.md). English ships in the entry bundle; another language's
// compiled catalogue is a chunk of its own, fetched only when someone uses that language.
import { i18n, type Messages } from "@lingui/core";
import type { Language } from "@server/domains/auth/schemas.ts";
import { messages as english } from "../locales/en/messages.po";

/** A person's language as the server stores it (users.language). */
export type { Language };
export const LANGUAGES: readonly Language[] = ["en", "es"];

/** Each language's name in itself, for the switchers. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: "English", es: "Español" };

const STORAGE_KEY = "language";

const catalogues: Record<Exclude<Language, "en">, () => Promise<{ messages: Messages }>> = {
  es: () => import("../locales/es/messages.po"),
};

i18n.loadAndActivate({ locale: "en", messages: english });

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

const loaded = new Set<Language>(["en"]);

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
  if (!loaded.has(language) && language !== "en") {
    const { messages } = await catalogues[language]();
    i18n.load(language, messages);
    loaded.add(language);
  }
  i18n.activate(language);
  document.documentElement.lang = language;
}
