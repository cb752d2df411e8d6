// `npm test` runs this beside the type check and the lint (scripts/test.sh): the browser tests'
// build of the web client is then ready when vitest's global set-up asks for it, instead of both
// workers waiting for it.
import { cachedBuild } from "./global-setup-client.ts";

console.log(`Web client for the browser tests: ${await cachedBuild()}`);
