// Sends one file from a path with the built library and reports time and peak memory.
import { createReduckClient, runScript } from "../dist/index.js";

const [file] = process.argv.slice(2);
const client = createReduckClient({ apiKey: process.env.REDUCK_API_KEY, baseUrl: process.env.REDUCK_API_URL });
const started = performance.now();
const { data, error } = await runScript({
  client,
  browser: "extension",
  script: { handle: "reduck", host: "docusign.com", slug: "upload_document", args: { documentName: "big.bin" }, files: { document: { path: file } } },
});
const ms = performance.now() - started;
if (error) {
  console.error(error.error);
  process.exit(1);
}
console.log(JSON.stringify({ ms, maxRss: process.resourceUsage().maxRSS * 1024, size: data.result.document.size }));
