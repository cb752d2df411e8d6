/** The logs of every server a test file started (helpers/server.ts); test/setup.ts checks them for secrets. */
export const serverLogs: string[][] = [];
