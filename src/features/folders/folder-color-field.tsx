import { Check } from "lucide-react";
import { cn } from "@/lib/cn.ts";
import { FOLDER_COLORS } from "@server/domains/folders/schemas.ts";

export type FolderColor = (typeof FOLDER_COLORS)[number];

const COLOR_NAMES: Record<FolderColor, string> = {
  "#3B82F6": "Blue",
  "#EF4444": "Red",
  "#10B981": "Green",
  "#F59E0B": "Amber",
  "#8B5CF6": "Purple",
  "#EC4899": "Pink",
};

export const isFolderColor = (value: string): value is FolderColor => (FOLDER_COLORS as readonly string[]).includes(value);

/** The six folder colours as one group of radio buttons, each shown as its swatch. */
export function FolderColorField({ value, onChange, name }: { value: FolderColor; onChange: (color: FolderColor) => void; name: string }) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-medium">Colour</legend>
      <div className="flex flex-wrap gap-3">
        {FOLDER_COLORS.map((option) => (
          <label key={option} className="relative cursor-pointer">
            <input
              type="radio"
              name={name}
              value={option}
              checked={value === option}
              onChange={() => onChange(option)}
              aria-label={COLOR_NAMES[option]}
              className="peer sr-only"
            />
            <span
              aria-hidden="true"
              className={cn(
                "grid size-9 place-items-center rounded-full ring-offset-2 ring-offset-popover transition-shadow duration-150 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-4 peer-focus-visible:outline-ring",
                value === option && "ring-2 ring-foreground",
              )}
              style={{ backgroundColor: option }}
            >
              {value === option && <Check className="size-4 text-white" strokeWidth={3} />}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
