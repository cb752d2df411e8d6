// The landing page's weight as a browser first loads it: the JS and CSS that index.html references
// (entry script, modulepreloads, stylesheets), gzip-compressed as the server sends them; every other
// script of the build is a lazily loaded chunk. Then Lighthouse, when the package is installed.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { repoRoot } from "./processes.ts";

export type BundleSizes = {
  initialJsGzip: number;
  initialCssGzip: number;
  /** What a browser that accepts brotli downloads: the build's precompressed .br files (vite.config.ts). */
  initialJsBrotli: number | null;
  lazyChunks: number;
  lazyJsGzip: number;
  initialFiles: string[];
};

export function buildClient(outDir: string): void {
  execFileSync(
    process.execPath,
    // The manifest names each chunk's imports, for the first-visit and legal-page sums (measureRouteChunks).
    [path.join(repoRoot, "node_modules/vite/bin/vite.js"), "build", "--outDir", outDir, "--emptyOutDir", "--logLevel", "error", "--manifest"],
    {
      cwd: repoRoot,
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
}

const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(file)).length;

export function measureBundle(clientDir: string): BundleSizes {
  const html = fs.readFileSync(path.join(clientDir, "index.html"), "utf8");
  const referenced = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  const initial = [...new Set(referenced)];
  const file = (ref: string) => path.join(clientDir, ref);
  const sum = (refs: string[]) => refs.reduce((total, ref) => total + gzipSize(file(ref)), 0);
  const lazy = fs
    .readdirSync(path.join(clientDir, "assets"))
    .filter((name) => name.endsWith(".js"))
    .map((name) => `/assets/${name}`)
    .filter((ref) => !initial.includes(ref));
  const initialJs = initial.filter((r) => r.endsWith(".js"));
  const brotliFiles = initialJs.map((ref) => `${file(ref)}.br`);
  return {
    initialJsGzip: sum(initialJs),
    initialJsBrotli: brotliFiles.every((f) => fs.existsSync(f)) ? brotliFiles.reduce((total, f) => total + fs.statSync(f).size, 0) : null,
    initialCssGzip: sum(initial.filter((r) => r.endsWith(".css"))),
    lazyChunks: lazy.length,
    lazyJsGzip: sum(lazy),
    initialFiles: initial,
  };
}

type ManifestChunk = { file: string; imports?: string[]; isEntry?: boolean };

export type RouteChunkSizes = {
  /** The landing page's own JS plus what it loads without a click: the welcome video and the consultation form (with the API client). */
  firstVisitJsGzip: number;
  /** What /privacy and /terms load beyond the landing page's initial JS: their route's chunk and its imports. */
  legalExtraJsGzip: number;
};

/** The modules the landing page imports lazily without a click (src/app/routes/landing.tsx, lazyWithApi). */
const FIRST_VISIT_LAZY = [
  "src/features/welcome-video/welcome-video-modal.tsx",
  "src/features/consultation/consultation-form.tsx",
  "src/app/api-provider.tsx",
];
const LEGAL_ROUTE = "src/app/routes/legal.tsx";

/**
 * Sums over the build's chunk graph (.vite/manifest.json, written by buildClient): each root's chunk
 * and every chunk it imports statically, each file counted once. Null for a build without a manifest.
 */
export function measureRouteChunks(clientDir: string): RouteChunkSizes | null {
  const manifestFile = path.join(clientDir, ".vite", "manifest.json");
  if (!fs.existsSync(manifestFile)) return null;
  const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Record<string, ManifestChunk>;
  const closure = (roots: string[]) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      for (const imported of manifest[key].imports ?? []) visit(imported);
    };
    roots.forEach(visit);
    return new Set([...seen].map((key) => manifest[key]!.file));
  };
  const sum = (files: Iterable<string>) => [...files].reduce((total, file) => total + gzipSize(path.join(clientDir, file)), 0);
  const initial = closure(["index.html"]);
  const legal = [...closure([LEGAL_ROUTE])].filter((file) => !initial.has(file));
  return { firstVisitJsGzip: sum(closure(["index.html", ...FIRST_VISIT_LAZY])), legalExtraJsGzip: sum(legal) };
}

export type LighthouseScores = { performance: number; accessibility: number; bestPractices: number } | { skipped: string };

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Lighthouse's default settings are the mobile ones (emulated phone, slow 4G, 4x CPU slowdown). */
export async function runLighthouse(url: string): Promise<LighthouseScores> {
  const lighthouseModule = "lighthouse";
  const launcherModule = "chrome-launcher";
  let lighthouse: (url: string, flags: object) => Promise<{ lhr: { categories: Record<string, { score: number | null }> } } | undefined>;
  let launch: (opts: object) => Promise<{ port: number; kill: () => void | Promise<void> }>;
  try {
    lighthouse = (await import(lighthouseModule)).default;
    launch = (await import(launcherModule)).launch;
  } catch {
    return { skipped: "lighthouse not installed" };
  }
  if (!fs.existsSync(CHROMIUM)) return { skipped: `no Chromium at ${CHROMIUM}` };
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices"],
    });
    const categories = result?.lhr.categories ?? {};
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    return { performance: score("performance"), accessibility: score("accessibility"), bestPractices: score("best-practices") };
  } finally {
    await chrome.kill();
  }
}
