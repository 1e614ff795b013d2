/**
 * Lists the catalogue and reads one script's contract with the library.
 *
 *   REDUCK_API_URL=http://127.0.0.1:4010 REDUCK_API_KEY=... npx tsx examples/list-scripts.ts
 */
import { createReduckClient, getScript, listAllScripts, paginate } from "reduck-client";

const apiKey = process.env.REDUCK_API_KEY;
if (!apiKey) {
  console.error("Set REDUCK_API_KEY (and REDUCK_API_URL for the sandbox).");
  process.exit(2);
}
const client = createReduckClient({ apiKey, baseUrl: process.env.REDUCK_API_URL });

// One page, with the page's facts beside the items.
const page = await listAllScripts({ client, query: { pageSize: 5, sortBy: "host" } });
if (page.error) {
  console.error(`listing failed: ${page.error.error}`);
  process.exit(1);
}
console.log(`First ${page.data.length} of ${page.totalCount} scripts (more pages: ${page.hasNextPage}):`);
for (const s of page.data) console.log(`  ${s.author.handle}/${s.host}/${s.slug}  ${s.name}`);

// Every script that takes a file, across all pages.
let count = 0;
for await (const _script of paginate(listAllScripts, { client, query: { q: "upload" } })) count++;
console.log(`Scripts matching "upload": ${count}`);

// One script's contract: its inputs, which of them are files, and what it returns.
const { data: script, error } = await getScript({ client, path: { handle: "reduck", host: "mail.google.com", slug: "send_email" } });
if (error) {
  console.error(`reading send_email failed: ${error.error}`);
  process.exit(1);
}
const input = (script.current_version as { input_schema?: any } | null)?.input_schema ?? {};
const required = new Set<string>(input.required ?? []);
console.log(`\n${script.name} (reduck/mail.google.com/send_email)`);
for (const [name, prop] of Object.entries<any>(input.properties ?? {})) {
  const kind = prop.format === "file" ? "file" : (prop.type ?? "any");
  console.log(`  ${name}${required.has(name) ? "" : "?"}: ${kind}`);
}
