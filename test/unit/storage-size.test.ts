import { describe, expect, it } from "vitest";
import { formatStorageSize, usedPercent } from "../../src/lib/storage-size.ts";

describe("formatStorageSize", () => {
  it("shows quotas and usage in 1024-based units with at most one decimal", () => {
    expect(formatStorageSize(0)).toBe("0 B");
    expect(formatStorageSize(300 * 1024)).toBe("300 KB");
    expect(formatStorageSize(1.2 * 1024 ** 3)).toBe("1.2 GB");
    expect(formatStorageSize(5120 * 1024 ** 2)).toBe("5 GB");
    expect(formatStorageSize(10 * 1024 ** 4)).toBe("10 TB");
  });

  it("never shows 1024 of a unit", () => {
    expect(formatStorageSize(1024 ** 3 - 1)).toBe("1 GB");
    expect(formatStorageSize(1023.9 * 1024)).toBe("1023.9 KB");
  });
});

describe("usedPercent", () => {
  it("rounds to one decimal, so a tiny share is 0 and never a number in exponent notation", () => {
    expect(usedPercent(14, 5 * 1024 ** 3)).toBe(0);
    expect(usedPercent(1.2 * 1024 ** 3, 5 * 1024 ** 3)).toBe(24);
    expect(usedPercent(1, 3)).toBe(33.3);
  });

  it("stays at 100 for a quota lowered below what is stored", () => {
    expect(usedPercent(3 * 1024 ** 2, 1024 ** 2)).toBe(100);
  });
});
