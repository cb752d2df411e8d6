import { describe, expect, it } from "vitest";
import { returnNotice, returnPath, sameOriginPath, signInUrl } from "../../src/lib/session-ended.ts";

const ID = "0b5e8d5c-3f7a-4c1e-9a2b-7d6e5f4a3b21";

describe("sameOriginPath", () => {
  it("keeps a path of this site with its query", () => {
    expect(sameOriginPath("/dashboard")).toBe("/dashboard");
    expect(sameOriginPath("/dashboard?tab=messages&folder=x")).toBe("/dashboard?tab=messages&folder=x");
    expect(sameOriginPath(`/signatures/${ID}`)).toBe(`/signatures/${ID}`);
    // Dot segments are resolved, and stay on this site.
    expect(sameOriginPath("/a/../dashboard")).toBe("/dashboard");
  });

  it("refuses anything that could leave the site", () => {
    for (const value of [
      "//evil.example",
      "//evil.example/dashboard",
      "///evil.example",
      "/\\evil.example",
      "/\\/evil.example",
      "\\\\evil.example",
      "https://evil.example/dashboard",
      "http:/evil.example",
      "javascript:alert(1)",
      "data:text/html,hi",
      "evil.example/dashboard",
      "dashboard",
      "/\t/evil.example",
      "/\n/evil.example",
      "/ /evil.example",
      " /dashboard",
      "/dash\u00e9board",
      "",
    ]) {
      expect(sameOriginPath(value), JSON.stringify(value)).toBeNull();
    }
    expect(sameOriginPath(null)).toBeNull();
    expect(sameOriginPath(undefined)).toBeNull();
  });

  it("keeps an encoded slash as part of a path here, never as a host", () => {
    expect(sameOriginPath("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
  });
});

describe("returnPath", () => {
  it("returns to the client portal's own pages, with their query", () => {
    expect(returnPath("/dashboard?tab=messages", "client")).toBe("/dashboard?tab=messages");
    expect(returnPath("/settings", "client")).toBe("/settings");
    expect(returnPath(`/signatures/${ID}`, "client")).toBe(`/signatures/${ID}`);
    expect(returnPath(`/organizers/${ID}`, "client")).toBe(`/organizers/${ID}`);
  });

  it("returns to the admin portal's own pages, with their query", () => {
    expect(returnPath("/admin/dashboard?tab=requests", "admin")).toBe("/admin/dashboard?tab=requests");
    expect(returnPath(`/admin/accounts/${ID}?section=messages`, "admin")).toBe(`/admin/accounts/${ID}?section=messages`);
    expect(returnPath(`/admin/accounts/${ID}/access`, "admin")).toBe(`/admin/accounts/${ID}/access`);
    expect(returnPath(`/admin/users/${ID}`, "admin")).toBe(`/admin/users/${ID}`);
  });

  it("gives the portal's home for anything else", () => {
    for (const value of [null, "//evil.example/dashboard", "/\\evil.example", "https://evil.example/dashboard", "/", "/admin", "/profile"]) {
      expect(returnPath(value, "client"), String(value)).toBe("/dashboard");
      expect(returnPath(value, "admin"), String(value)).toBe("/admin/dashboard");
    }
    // Each portal returns only to its own pages, and an id must be one.
    expect(returnPath("/admin/dashboard", "client")).toBe("/dashboard");
    expect(returnPath("/dashboard", "admin")).toBe("/admin/dashboard");
    expect(returnPath("/signatures/verify", "client")).toBe("/dashboard");
    expect(returnPath(`/signatures/${ID}/extra`, "client")).toBe("/dashboard");
    expect(returnPath("/admin/accounts/not-an-id", "admin")).toBe("/admin/dashboard");
  });
});

describe("signInUrl", () => {
  it("opens the portal's sign-in with the page to come back to", () => {
    expect(signInUrl("client", { pathname: `/signatures/${ID}`, search: "" })).toBe(`/?next=%2Fsignatures%2F${ID}`);
    expect(signInUrl("admin", { pathname: "/admin/dashboard", search: "?tab=requests" })).toBe("/admin?next=%2Fadmin%2Fdashboard%3Ftab%3Drequests");
  });
});

describe("returnNotice", () => {
  it("says what waits after signing in", () => {
    expect(returnNotice(`/signatures/${ID}`)).toMatch(/waits for your signature/);
    expect(returnNotice(`/organizers/${ID}`)).toMatch(/organizer/);
    expect(returnNotice("/dashboard?tab=messages")).toMatch(/messages/);
    expect(returnNotice("/dashboard")).toMatch(/page your link leads to/);
  });
});
