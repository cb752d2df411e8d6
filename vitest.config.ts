import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/*
 * Five projects, so a run does only the set-up its files need (README.md, "Set-up", shows how to
 * run one file or one project):
 * - unit: no database, no server, no build;
 * - server, security (and security-isolated): a migrated template database (test/global-setup.ts), no build;
 * - e2e: the template database and the web client's build (test/global-setup-client.ts, kept until
 *   its sources change), for the browser tests and the server test that reads the built files;
 * - bench: the bench scripts' smoke run, which serves the built client too.
 * `npx vitest run --project unit` runs one project; a file path runs one file in its project.
 */
const needsClient = ["test/server/static-assets.test.ts"];
/**
 * Security files that keep a process of their own: the fuzzer's shares (a third of the suite, each on a fresh heap),
 * the ones that spy on modules or set the environment, and the superjson timing check, whose
 * ratios shifted with the heap and the compiled code other files left behind.
 */
const isolatedSecurity = [
  "test/security/fuzzing-*.test.ts",
  "test/security/brute-force.test.ts",
  "test/security/passwords.test.ts",
  "test/security/superjson-meta.test.ts",
];

/**
 * The fuzzer is about a third of the suite's work (1,000 inputs for each of ~440 targets), dealt to
 * several files (test/security/fuzzer.ts). Started first, the longest files, the workers fill in
 * with the rest beside them; started last (a fresh clone has no timings for vitest to sort by), one
 * file of it ran alone for minutes after all else had ended.
 */
class FuzzerFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isFuzzer = (file: TestSpecification) => /test\/security\/fuzzing-\d+\.test\.ts$/.test(file.moduleId);
    return [...sorted.filter(isFuzzer), ...sorted.filter((file) => !isFuzzer(file))];
  }
}

export default defineConfig({
  // Source files under test import through tsconfig.json's "@/" and "@server/" paths.
  resolve: { tsconfigPaths: true },
  test: {
    setupFiles: ["test/setup.ts"],
    pool: "forks",
    sequence: { sequencer: FuzzerFirst },
    // Three workers on two cores: the browser tests wait on Chromium and the server tests on timers
    // and Postgres often enough that with two, 5-10% of the CPU sat idle through the run and half of
    // it through the last two and a half minutes (server files alone). With three it stays busy:
    // 938 s against 988-1,126 s for the same files (docs/performance.md, "The test suite's time").
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // A rejected promise nobody awaited is a bug in the code under test.
    dangerouslyIgnoreUnhandledErrors: false,
    projects: [
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "server",
          include: ["test/server/**/*.test.ts"],
          exclude: needsClient,
          globalSetup: ["test/global-setup.ts"],
          // Each server file imports the whole app (pdf.js, pdf-lib, the signing libraries, ...):
          // isolated, that was a quarter of the suite's import time. The files share no module state
          // (each starts its own server and database); the security files that cannot share a
          // process are the security-isolated project.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "security",
          include: ["test/security/**/*.test.ts"],
          exclude: isolatedSecurity,
          globalSetup: ["test/global-setup.ts"],
          isolate: false,
        },
      },
      { extends: true, test: { name: "security-isolated", include: isolatedSecurity, globalSetup: ["test/global-setup.ts"] } },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts", ...needsClient],
          globalSetup: ["test/global-setup.ts", "test/global-setup-client.ts"],
          // As the server project: each file starts its own server, database and browser.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "bench", include: ["test/bench/**/*.test.ts"], globalSetup: ["test/global-setup.ts", "test/global-setup-client.ts"] },
      },
    ],
  },
});
