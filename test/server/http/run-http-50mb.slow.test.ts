// POST /run over real loopback HTTP with parts of 50 MB: the part limit both ways, and a refused
// part never held by the server (slow: each test sends 50 MB or more; run-http.test.ts has the rest).
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { request as httpRequest } from "node:http";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MAX_FILE_BYTES } from "../contract/service-rules.js";
import { servedEachTest, sendEmail } from "./fixtures/loopback-server.js";
import { TSX_NODE_ARGS } from "../process/sandbox-process.js";
import { present } from "../contract/present.js";

const PROBE = fileURLToPath(new URL("./fixtures/memory-probe.ts", import.meta.url));

const served = servedEachTest();

async function postForm(form: FormData): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${served.server.url}/run`, { method: "POST", headers: { "x-api-key": served.store.demo.apiKey }, body: form });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

function formWith(bytes: Buffer<ArrayBuffer>, input = "attachment", script: object = sendEmail): FormData {
  const form = new FormData();
  form.append("spec", JSON.stringify({ browser: "extension", script }));
  form.append(`0:${input}`, new Blob([bytes]), input);
  return form;
}

describe("POST /run over HTTP: the 50 MB part limit", () => {
  it("accepts a part of exactly MAX_FILE_BYTES, hashed intact", async () => {
    const bytes = Buffer.alloc(MAX_FILE_BYTES, 7);
    const expected = createHash("sha256").update(bytes).digest("hex");
    const sent = await postForm(formWith(bytes));
    expect(sent.status).toBe(200);
    expect(sent.body.result.attachment).toBe("attachment");
    expect(served.store.runs.get(sent.body.runId)!.files).toEqual([
      { input: "attachment", name: "attachment", size: MAX_FILE_BYTES, type: "application/octet-stream", sha256: expected, via: "bytes" },
    ]);

    const document = await postForm(
      formWith(bytes, "document", { handle: "reduck", host: "docusign.com", slug: "upload_document", args: { documentName: "big.pdf" } }),
    );
    expect(document.status).toBe(200);
    expect(document.body.result.document).toMatchObject({ name: "big.pdf", size: MAX_FILE_BYTES, sha256: expected });
  });

  it("refuses one byte more with 413 as it crosses the limit, without holding the part", async () => {
    const bytes = Buffer.alloc(MAX_FILE_BYTES + 1);
    const refused = await postForm(formWith(bytes));
    expect(refused.status).toBe(413);
    expect(refused.body.error).toBe("Payload Too Large: file part 0:attachment is over the 50 MiB limit");
    // The run was recorded when the spec arrived; it failed with the refusal.
    expect(served.store.runs.get(refused.body.runId)).toMatchObject({ status: "error", result: { error: refused.body.error } });
    // The server is fine afterwards.
    expect((await fetch(`${served.server.url}/api/ping`)).status).toBe(200);
  });

  it("answers 413 the moment the limit is crossed, without waiting for the rest of the upload", async () => {
    // An upload that stops right after the byte too many and never ends: the answer must not wait
    // for it, and the connection, holding unread bytes, is not reused.
    const boundary = "----reduck-over";
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="spec"\r\nContent-Type: application/json\r\n\r\n` +
      JSON.stringify({ browser: "extension", script: sendEmail }) +
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="0:attachment"; filename="attachment"\r\n\r\n`;
    const req = httpRequest({
      host: "127.0.0.1",
      port: new URL(served.server.url).port,
      path: "/run",
      method: "POST",
      headers: {
        "x-api-key": served.store.demo.apiKey,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(head.length + MAX_FILE_BYTES + 1024),
      },
    });
    req.on("error", () => undefined);
    const answered = once(req, "response") as Promise<[import("node:http").IncomingMessage]>;
    req.write(head);
    req.write(Buffer.alloc(MAX_FILE_BYTES + 1));
    const [response] = await answered;
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    req.destroy();
    expect(response.statusCode).toBe(413);
    expect(response.headers.connection).toBe("close");
    expect(JSON.parse(Buffer.concat(chunks).toString()).error).toBe("Payload Too Large: file part 0:attachment is over the 50 MiB limit");
  });
});

describe("POST /run over HTTP: memory", () => {
  it("never holds a refused 50 MB + 1 part in the server process", async () => {
    // The server runs in a child process: in this one, the client's own copies of the upload would
    // swamp the figure. A server that buffered the part (say through a cloned, teed request) would
    // show at least its 50 MB.
    const probe = spawn(process.execPath, ["--expose-gc", ...TSX_NODE_ARGS, PROBE], { stdio: ["pipe", "pipe", "inherit"] });
    const lines = createInterface({ input: probe.stdout! })[Symbol.asyncIterator]();
    const next = async () => String((await lines.next()).value);
    try {
      const [url, announcedKey] = (await next()).split(" ");
      const key = present(announcedKey, "the probe's key after its address");
      const post = async (size: number) => {
        const form = new FormData();
        form.append("spec", JSON.stringify({ browser: "extension", script: { handle: "@demo", host: "example.org", slug: "keep" } }));
        form.append("0:attachment", new Blob([Buffer.alloc(size)]), "attachment");
        const response = await fetch(`${url}/run`, { method: "POST", headers: { "x-api-key": key }, body: form });
        await response.arrayBuffer();
        return response.status;
      };
      expect(await post(1024)).toBe(200); // warm up
      probe.stdin!.write("reset\n");
      expect(await next()).toBe("ok");
      expect(await post(MAX_FILE_BYTES + 1)).toBe(413);
      probe.stdin!.write("peak\n");
      const held = Number(await next());
      expect(held).toBeLessThan(MAX_FILE_BYTES / 5);
    } finally {
      probe.kill("SIGTERM");
      await once(probe, "exit");
    }
  });
});
