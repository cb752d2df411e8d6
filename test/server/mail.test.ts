import { describe, expect, it } from "vitest";
import { composeEmail } from "../../server/mail/compose.ts";

describe("composeEmail", () => {
  it("escapes every piece of data in the HTML part and keeps the text part verbatim", () => {
    const { text, html } = composeEmail({
      firmName: "Smith & <Co>",
      heading: 'Hi "there"',
      paragraphs: ["<img src=x onerror=alert(1)>"],
      details: [["Name", "O'Brien"]],
      action: { label: "Open", url: 'https://example.com/?a=1&b="2"' },
    });
    expect(html).not.toContain("<img");
    expect(html).toContain("Smith &#38; &#60;Co&#62;");
    expect(html).toContain('href="https://example.com/?a=1&#38;b=&#34;2&#34;"');
    expect(html).toContain("O&#39;Brien");
    expect(text).toContain("<img src=x onerror=alert(1)>");
    expect(text).toContain('Open: https://example.com/?a=1&b="2"');
    expect(text.trimEnd().endsWith("- Smith & <Co>")).toBe(true);
  });
});
