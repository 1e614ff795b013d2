// The floor Node itself sets for the 50 MB run: the same multipart POST /run over node:http, the
// file read in 512 KiB pieces into two buffers (as the library reads it), each read into again once the socket has taken
// its bytes (a fresh buffer per piece pays the first touch of every page it holds). No library, no
// checks: what any Node program pays to send the run, to set beside curl and beside the CLI.
// Given a third argument, the path of the script's contract (`/api/scripts/HANDLE/HOST/SLUG`), it
// reads that first and sends the run once the answer is in, on a connection of its own, as any
// client must that checks the arguments before it uploads (the CLI does, so that a run the
// service would refuse is never sent). CommonJS, as the CLI is: an ES module would start Node's
// ES module loader too.
"use strict";
const fs = require("node:fs");
const http = require("node:http");

const [spec, file, contract] = process.argv.slice(2);
const boundary = `bare-upload-${process.pid}`;
const head = Buffer.from(
  `--${boundary}\r\nContent-Disposition: form-data; name="spec"\r\nContent-Type: application/json\r\n\r\n${fs.readFileSync(spec, "utf8")}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="0:document"; filename="document"\r\nContent-Type: application/octet-stream\r\n\r\n`,
);
const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
const fd = fs.openSync(file, "r");
const size = fs.fstatSync(fd).size;

const headers = { "X-API-Key": process.env.REDUCK_API_KEY };
if (contract) {
  // Kept alive, as the CLI reads it; the run still goes on a new connection.
  http
    .get(`${process.env.REDUCK_API_URL}${contract}`, { headers, agent: new http.Agent({ keepAlive: true }) }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        if (res.statusCode !== 200) {
          console.error(`HTTP ${res.statusCode} for the contract: ${Buffer.concat(chunks)}`);
          process.exitCode = 1;
          return;
        }
        JSON.parse(Buffer.concat(chunks).toString());
        upload();
      });
    })
    .on("error", (err) => {
      console.error(err.message);
      process.exitCode = 1;
    });
} else upload();

/** Sends the run, reading the file into the two buffers in turn. */
function upload() {
  const req = http.request(`${process.env.REDUCK_API_URL}/run`, {
    method: "POST",
    headers: {
      ...headers,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "Content-Length": head.length + size + tail.length,
    },
  });
  req.on("response", (res) => {
    const chunks = [];
    res.on("data", (c) => chunks.push(c));
    res.on("end", () => {
      // A failed run must not pass for a fast one.
      if (res.statusCode !== 200) {
        console.error(`HTTP ${res.statusCode}: ${Buffer.concat(chunks)}`);
        process.exitCode = 1;
      } else process.stdout.write(Buffer.concat(chunks));
    });
  });
  req.on("error", (err) => {
    console.error(err.message);
    process.exitCode = 1;
  });

  req.write(head);
  const free = Array.from({ length: 2 }, () => Buffer.allocUnsafeSlow(512 * 1024));
  let at = 0;
  let ended = false;
  (function next() {
    while (at < size && free.length) {
      const buffer = free.pop();
      const read = fs.readSync(fd, buffer, 0, Math.min(buffer.length, size - at), at);
      if (read === 0) throw new Error(`${file} is shorter than its ${size} bytes`);
      at += read;
      req.write(buffer.subarray(0, read), () => {
        free.push(buffer);
        next();
      });
    }
    if (at === size && !ended) {
      ended = true;
      req.end(tail);
    }
  })();
}
