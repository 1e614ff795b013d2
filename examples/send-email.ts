/**
 * Runs reduck/mail.google.com/send_email with an attachment, through the library.
 *
 *   npx tsx examples/send-email.ts ./banner.png             # bytes from disk (multipart)
 *   npx tsx examples/send-email.ts --named 2026/banner.png   # a file in <desktop>/reduck, read by your browser
 *
 * Needs REDUCK_API_KEY (and REDUCK_API_URL for the sandbox).
 */
import path from "node:path";
import { createReduckClient, runScript, type FileSource } from "reduck-client";

const [first, second] = process.argv.slice(2);
const named = first === "--named";
const file = named ? second : first;
const apiKey = process.env.REDUCK_API_KEY;
if (!apiKey || !file) {
  console.error("usage: REDUCK_API_KEY=... npx tsx examples/send-email.ts [--named] FILE");
  process.exit(2);
}

const client = createReduckClient({ apiKey, baseUrl: process.env.REDUCK_API_URL });
// Bytes arrive named after the input ("attachment"), so give the recipient a real name;
// a named file keeps its own.
const attachment: FileSource = named ? { relativePath: file } : { path: file };
const { data, error } = await runScript({
  client,
  browser: "extension",
  script: {
    handle: "reduck",
    host: "mail.google.com",
    slug: "send_email",
    args: { to: "me@example.com", subject: "Our new banner", ...(named ? {} : { attachmentName: path.basename(file) }) },
    files: { attachment },
  },
  onUploadProgress: ({ sent, total }) => {
    if (sent === total) console.error(`uploaded ${total} bytes`);
  },
});
if (error) {
  console.error(`run failed: ${error.error}${error.runId ? ` (run ${error.runId})` : ""}`);
  process.exit(1);
}
console.error(`run ${data.runId}`);
console.log(JSON.stringify(data.result));
