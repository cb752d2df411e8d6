import { defineConfig } from "vitest/config";

export default defineConfig({
  // Source files under test import through tsconfig.json's "@/" and "@server/" paths.
  resolve: { tsconfigPaths: true },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // A rejected promise nobody awaited is a bug in the code under test.
    dangerouslyIgnoreUnhandledErrors: false,
  },
});
