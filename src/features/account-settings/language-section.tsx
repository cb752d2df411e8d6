import { Trans, useLingui } from "@lingui/react/macro";
import { toast } from "sonner";
import { errorDetail } from "@/lib/api-error.ts";
import { activateLanguage, type Language, LANGUAGE_NAMES, LANGUAGES } from "@/lib/i18n.ts";
import { SettingsSection } from "./settings-section.tsx";
import { useUpdateLanguage } from "./use-update-language.ts";

/** The person's language: the portal, the firm's emails and the documents made for them speak it. */
export function LanguageSection({ language }: { language: Language }) {
  const { t } = useLingui();
  const update = useUpdateLanguage();

  function choose(next: Language) {
    update.mutate(
      { language: next },
      {
        // The page switches first, so the toast speaks the new language.
        onSuccess: () => void activateLanguage(next).then(() => toast.success(t`Language saved.`)),
        onError: (err) => toast.error(errorDetail(err) ?? t`The language could not be saved.`),
      },
    );
  }

  return (
    <SettingsSection id="language" title={t`Language`} description={t`The language of your portal and of the emails and documents we send you.`}>
      <fieldset className="grid gap-2" disabled={update.isPending}>
        <legend className="sr-only">
          <Trans>Language</Trans>
        </legend>
        {LANGUAGES.map((option) => (
          <label key={option} className="flex min-h-11 w-fit cursor-pointer items-center gap-3 rounded-md text-sm sm:min-h-9">
            <input
              type="radio"
              name="language"
              value={option}
              checked={language === option}
              onChange={() => choose(option)}
              className="size-4 accent-primary"
            />
            <span lang={option}>{LANGUAGE_NAMES[option]}</span>
          </label>
        ))}
      </fieldset>
    </SettingsSection>
  );
}
