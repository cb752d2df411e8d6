import { useEffect, useState } from "react";
import { cn } from "@/lib/cn.ts";
import type { measurePassword, PasswordStrength } from "@/lib/password-strength.ts";

type Measure = typeof measurePassword;
let measureLoad: Promise<Measure> | undefined;
/** The measuring code, fetched the first time any password field has something in it. */
function loadMeasure(): Promise<Measure> {
  measureLoad ??= import("@/lib/password-strength.ts").then((module) => module.measurePassword);
  return measureLoad;
}

const LABELS = ["Too easy to guess", "Easy to guess", "Fair", "Strong", "Very strong"] as const;
const TONES = ["bg-destructive", "bg-destructive", "bg-amber-500", "bg-accent", "bg-accent"] as const;

type PasswordStrengthMeterProps = {
  password: string;
  /** What the person typed elsewhere in the form (username, email, name): a password built from them is weak. */
  userInputs?: string[];
  className?: string;
};

/**
 * How hard a new password is to guess, as the person types (zxcvbn, loaded on first use), and
 * whether the server will refuse it. Under 6 characters the length rule speaks instead.
 */
export function PasswordStrengthMeter({ password, userInputs = [], className }: PasswordStrengthMeterProps) {
  const [strength, setStrength] = useState<PasswordStrength | null>(null);
  const inputsKey = userInputs.join("\u0000");

  useEffect(() => {
    if (password.length < 6) return;
    let current = true;
    void loadMeasure().then(
      (measure) => {
        if (current) setStrength(measure(password, inputsKey.split("\u0000")));
      },
      // Without the meter (a failed chunk load) the server still checks on submit.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [password, inputsKey]);

  // The last measure stays shown while the next one is taken (no flicker, no repeated announcement).
  const shown = password.length >= 6 ? strength : null;
  // A short random password zxcvbn rates 1 by its length alone is accepted: it shows as Fair.
  const level = shown ? (shown.guessable ? Math.min(shown.score, 1) : Math.max(shown.score, 2)) : null;
  const label = level === null ? null : LABELS[level];
  const filled = level === null ? 0 : Math.max(level, 1);
  return (
    <div className={cn("grid gap-1.5", className)} data-testid="password-strength">
      <div aria-hidden="true" className="grid grid-cols-4 gap-1">
        {[1, 2, 3, 4].map((step) => (
          <span key={step} className={cn("h-1 rounded-full bg-muted", level !== null && step <= filled && TONES[level])} />
        ))}
      </div>
      <p aria-live="polite" className="min-h-4 text-xs text-muted-foreground">
        {label && (
          <>
            <span className={cn("font-medium", shown?.guessable ? "text-destructive" : "text-foreground")}>Strength: {label}</span>
            {shown?.guessable && ". Made of common words, names, dates or patterns: it will be refused. Add another word or two."}
          </>
        )}
      </p>
    </div>
  );
}
