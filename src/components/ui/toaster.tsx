import { Toaster as SonnerToaster } from "sonner";

/** The app's one toast region, with the settings of docs/decisions.md (The pages); call `toast()` from "sonner". */
export function Toaster() {
  return (
    <SonnerToaster
      position="bottom-right"
      duration={4000}
      visibleToasts={3}
      gap={14}
      hotkey={["altKey", "KeyT"]}
      // Sonner's own stylesheet is unlayered and would beat Tailwind's font utility. Its default
      // width is the 356 px of docs/decisions.md, and below 600 px it spans the screen instead.
      style={{ fontFamily: "var(--font-sans)" }}
    />
  );
}
