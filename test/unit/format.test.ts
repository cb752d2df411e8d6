import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatFileSizeKB } from "../../src/lib/format.ts";

describe("formatFileSizeKB", () => {
  it("divides by 1024 and keeps one decimal", () => {
    expect(formatFileSizeKB(12_595)).toBe("12.3 KB");
    expect(formatFileSizeKB(1024)).toBe("1.0 KB");
    expect(formatFileSizeKB(0)).toBe("0.0 KB");
    expect(formatFileSizeKB(10 * 1024 * 1024)).toBe("10240.0 KB");
  });
});

describe("formatDate and formatDateTime", () => {
  const afternoon = new Date(2025, 2, 4, 14, 30);

  it("shows the date without the time", () => {
    const text = formatDate(afternoon);
    expect(text).toContain("2025");
    expect(text).not.toContain("30");
  });

  it("shows the date with the time", () => {
    const text = formatDateTime(afternoon);
    expect(text).toContain("2025");
    expect(text).toContain("30");
  });

  it("accepts ISO strings as the server sends them", () => {
    expect(formatDate("2025-03-04T12:00:00Z")).toBe(formatDate(new Date("2025-03-04T12:00:00Z")));
  });
});
