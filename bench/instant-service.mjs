// A stand-in for the service that answers at once, run as a process of its own (`node
// bench/instant-service.mjs RECORD_FILE`; it prints its URL and serves until killed), for
// measuring what the client itself costs per row when the server is not the bottleneck: the
// sandbox runs each script body in a process of its own, which caps it at some 12-15 runs a
// second on this machine. It knows the two requests `reduck run` and `reduck batch` make: a
// script's record (RECORD_FILE, copied from the real sandbox, so the contract is the seeded one)
// and `POST /run` as JSON, answered with each script's arguments as its result (one object for
// `script`, envelopes in order for `scripts`).
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const record = readFileSync(process.argv[2], "utf8");
const server = createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    const send = (status, body) => response.writeHead(status, { "Content-Type": "application/json" }).end(body);
    if (request.method === "GET" && request.url?.startsWith("/api/scripts/")) return send(200, record);
    if (request.method !== "POST" || request.url !== "/run") return send(404, JSON.stringify({ error: "not here" }));
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (body.script) return send(200, JSON.stringify({ result: body.script.args ?? {}, runId: randomUUID() }));
    send(200, JSON.stringify((body.scripts ?? []).map((s) => ({ status: "completed", runId: randomUUID(), result: s.args ?? {} }))));
  });
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}`));
