import { type ReactNode, useId } from "react";

type Props = {
  title: string;
  /** Said after the title by screen readers (aria-describedby), kept out of the control's name. */
  description: ReactNode;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
};

/** A Site tab switch: a checkbox named by its title alone, its description linked to it. */
export function SettingCheckbox({ title, description, checked, disabled, onChange }: Props) {
  const id = useId();
  return (
    <div className="flex items-start gap-3 text-sm">
      <input
        id={id}
        type="checkbox"
        aria-describedby={`${id}-description`}
        className="mt-0.5 size-5 shrink-0 cursor-pointer accent-[var(--color-accent)]"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span className="grid gap-0.5">
        <label htmlFor={id} className="cursor-pointer font-medium">
          {title}
        </label>
        <span id={`${id}-description`} className="text-muted-foreground">
          {description}
        </span>
      </span>
    </div>
  );
}
