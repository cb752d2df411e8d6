import type { ReactNode } from "react";

type Block = { kind: "heading" | "paragraph"; text: string } | { kind: "list"; items: string[] };

/**
 * The legal pages' text as blocks: blank lines separate them, "## " starts a heading and "- " a list
 * item (docs/site-content.md, Legal pages). Everything stays text: React escapes it, and no HTML the
 * firm types is ever rendered as markup.
 */
export function legalBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  for (const chunk of text.replace(/\r\n?/g, "\n").split(/\n\s*\n/)) {
    const lines = chunk
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    let paragraph: string[] = [];
    const endParagraph = () => {
      if (paragraph.length > 0) blocks.push({ kind: "paragraph", text: paragraph.join(" ") });
      paragraph = [];
    };
    for (const line of lines) {
      if (line.startsWith("## ")) {
        endParagraph();
        blocks.push({ kind: "heading", text: line.slice(3).trim() });
      } else if (line.startsWith("- ")) {
        endParagraph();
        const last = blocks.at(-1);
        if (last?.kind === "list") last.items.push(line.slice(2).trim());
        else blocks.push({ kind: "list", items: [line.slice(2).trim()] });
      } else {
        paragraph.push(line);
      }
    }
    endParagraph();
  }
  return blocks;
}

export function LegalText({ text }: { text: string }) {
  return (
    <div className="grid gap-4 leading-relaxed">
      {legalBlocks(text).map((block, i): ReactNode => {
        if (block.kind === "heading")
          return (
            <h2 key={i} className="mt-4 text-xl font-semibold">
              {block.text}
            </h2>
          );
        if (block.kind === "list")
          return (
            <ul key={i} className="grid list-disc gap-2 pl-6">
              {block.items.map((item, j) => (
                <li key={j}>{item}</li>
              ))}
            </ul>
          );
        return <p key={i}>{block.text}</p>;
      })}
    </div>
  );
}
