// The same run as library-upload.mjs, its multipart body framed by the npm `form-data` package
// and streamed into node:http with its exact Content-Length: the comparison that decided to keep
// our own framing (see docs/performance.md). Not a client: no
// retries, no check that the file is unchanged while it is read, which ours does.
import fs from "node:fs";
import http from "node:http";
import FormData from "form-data";

const [file] = process.argv.slice(2);
const form = new FormData();
const spec = { browser: "extension", script: { handle: "reduck", host: "docusign.com", slug: "upload_document", args: { documentName: "big.bin" } } };
form.append("spec", JSON.stringify(spec), { contentType: "application/json" });
// A part of known length: form-data counts it without a stat of its own.
form.append("0:document", fs.createReadStream(file, { highWaterMark: 1024 * 1024 }), {
  knownLength: fs.statSync(file).size,
  filename: "big.bin",
  contentType: "application/octet-stream",
});

let sent = 0;
const url = new URL("/run", process.env.REDUCK_API_URL);
const request = http.request(url, {
  method: "POST",
  headers: { ...form.getHeaders(), "Content-Length": form.getLengthSync(), "X-API-Key": process.env.REDUCK_API_KEY, Accept: "application/json" },
});
form.on("data", (chunk) => (sent += chunk.length)); // progress, as ours counts it
request.on("response", (response) => {
  const chunks = [];
  response.on("data", (c) => chunks.push(c));
  response.on("end", () => {
    const answer = JSON.parse(Buffer.concat(chunks).toString());
    if (response.statusCode !== 200) {
      console.error(response.statusCode, answer);
      process.exitCode = 1;
      return;
    }
    console.log(JSON.stringify({ sent, size: answer.result.document.size, maxRss: process.resourceUsage().maxRSS * 1024 }));
  });
});
request.on("error", (err) => {
  console.error(err.message);
  process.exitCode = 1;
});
form.pipe(request);
