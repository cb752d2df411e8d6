import { useLingui } from "@lingui/react";
import { Button } from "@/components/ui/button.tsx";
import { activateLanguage, type Language, LANGUAGE_NAMES, rememberLanguage } from "@/lib/i18n.ts";

/**
 * The public site's switch to the other language, named in that language ("Español" on the English
 * page), so a visitor who reads only it still finds it. The choice is remembered on this browser.
 */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { i18n } = useLingui();
  const other: Language = i18n.locale === "es" ? "en" : "es";
  return (
    <Button
      variant="ghost"
      className={className}
      lang={other}
      onClick={() => {
        rememberLanguage(other);
        void activateLanguage(other);
      }}
    >
      {LANGUAGE_NAMES[other]}
    </Button>
  );
}
