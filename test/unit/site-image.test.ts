import { describe, expect, it } from "vitest";
import { SHIPPED_IMAGES, siteImageSrc } from "../../src/lib/site-image.ts";

describe("siteImageSrc", () => {
  it("keeps paths on our own origin and inline images", () => {
    expect(siteImageSrc("/images/new-hero.png", SHIPPED_IMAGES.hero)).toBe("/images/new-hero.png");
    expect(siteImageSrc("  /uploads/logo.svg ", SHIPPED_IMAGES.logo)).toBe("/uploads/logo.svg");
    expect(siteImageSrc("data:image/png;base64,iVBORw0KGgo=", SHIPPED_IMAGES.logo)).toBe("data:image/png;base64,iVBORw0KGgo=");
  });

  it("falls back to the shipped image for anything the page could not or should not load", () => {
    for (const value of [
      "https://cdn.example.com/hero.png",
      "http://example.com/a.png",
      "//cdn.example.com/hero.png",
      "/\\cdn.example.com/hero.png",
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "images/hero.svg",
      "",
      "   ",
      undefined,
    ]) {
      expect(siteImageSrc(value, SHIPPED_IMAGES.about), String(value)).toBe(SHIPPED_IMAGES.about);
    }
  });
});
