// Run by gc.test.ts as `node --expose-gc gc-child.mjs <case> <url> <library>`: one call against a
// server that never answers, with a garbage collection forced every 10 ms while it waits. Prints the
// outcome. <library> is the built library's ES module (the test build's dist/index.js).
import { pathToFileURL } from "node:url";

const [which, url, library] = process.argv.slice(2);
const { createReduckClient, getMe, listAll, listRuns, runScript } = await import(pathToFileURL(library).href);
const client = createReduckClient({ apiKey: "k", baseUrl: url, timeoutMs: 500, maxRetries: 0 });
const collector = setInterval(() => globalThis.gc(), 10);
const started = Date.now();

const aborter = () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 500);
  return controller.signal;
};

const calls = {
  "catalogue-timeout": () => getMe({ client }),
  // Default retries: the old transport cloned the Request for them, and the clone lost the signal.
  "catalogue-abort": () => getMe({ client: createReduckClient({ apiKey: "k", baseUrl: url, timeoutMs: 0 }), signal: aborter() }),
  "list-timeout": () => listAll(listRuns, { client }),
  "run-abort": () => runScript({ client, script: { host: "a.com", slug: "s" }, signal: aborter() }),
  "run-multipart-abort": () => runScript({ client, script: { host: "a.com", slug: "s", files: { attachment: Buffer.from("x") } }, signal: aborter() }),
};

const { error } = await calls[which]();
clearInterval(collector);
process.stdout.write(JSON.stringify({ kind: error?.kind, error: error?.error, elapsedMs: Date.now() - started }));
process.exit(0);
