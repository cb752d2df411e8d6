// What `use-sync-external-store/shim` gives React 19: React's own hook (vite.config.ts aliases the
// shim here). @lingui/react still imports the shim for React 16-17, and its CommonJS wrapper cost the
// landing page's first load some 700 bytes.
export { useSyncExternalStore } from "react";
