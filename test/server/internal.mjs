// internal.ts for Node itself, as entry.mjs is index.ts.
import "./process/register-tsx.mjs";

const sandbox = await import("./internal.ts");

// Every value internal.ts exports, by name (entry.test.ts checks that none is missing).
export const {
  ALL_SCOPES,
  EARLY_ACCESS_WORDS,
  MiB,
  chromiumExecutable,
  chromiumSandboxWanted,
  directRoutesOf,
  freePort,
  invoicePdf,
  keepScreenshots,
  loadPlaywright,
  peakTreeRss,
  readMultipartBody,
  readNamedFile,
  scratchFolder,
  startAttackedSandbox,
  treeRssBytes,
  trustAuthorizationServer,
  withDirectRoute,
} = sandbox;
