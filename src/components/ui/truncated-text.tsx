import { useLayoutEffect, useRef, useState } from "react";
import { cn } from "@/lib/cn.ts";

type TruncatedTextProps = {
  text: string;
  className?: string;
};

/**
 * One line of text cut with an ellipsis when it does not fit. The whole text stays in the page
 * (screen readers read it), shows on hover (title), and unfolds onto more lines when focused: a
 * cut text joins the tab order so a keyboard user can reach it too. Long names (a 200-character
 * file name) would otherwise push a phone's page sideways.
 */
export function TruncatedText({ text, className }: TruncatedTextProps) {
  const ref = useRef<HTMLSpanElement>(null);
  const [isCut, setIsCut] = useState(false);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    // While focused it is unfolded, so it would measure as fitting: keep the last answer.
    const measure = () => document.activeElement !== element && setIsCut(element.scrollWidth > element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [text]);

  return (
    <span
      ref={ref}
      title={text}
      tabIndex={isCut ? 0 : undefined}
      className={cn("block truncate rounded-sm focus:break-all focus:whitespace-normal", className)}
    >
      {text}
    </span>
  );
}
