/**
 * `--out DIR`, downloads: the built CLI against the sandbox over loopback,
 * with the sandbox's simulated downloads: download_invoice's base64 PDF, a managed browser's
 * `{ filename, url }`, and hostile names from the server.
 */
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { describe, expect, onTestFinished, test } from "vitest";
import { invoicePdf } from "@reduck-client/sandbox/internal";
import { runCli } from "../support/cli.js";
import { listenOnLoopback } from "../support/loopback.js";
import { useCliSandbox } from "../support/sandbox.js";
import { temporaryFolder } from "../support/files.js";

const INVOICE = ["--script", "reduck/admin.atlassian.com/download_invoice", "id=inv_42", "transaction_account=acct_9", "number=IN-EU-002"];

const sandbox = useCliSandbox({
  seed: (store) => {
    // A managed browser needs the site's session: a connector for the simulated Atlassian.
    store.putConnector(store.demo.userId, "admin.atlassian.com", [
      { name: "session", value: "s", domain: "admin.atlassian.com", path: "/", expires: 4102444800, httpOnly: true, secure: true },
    ]);
    // Scripts that hand back what a managed browser downloaded, under the names a server chose.
    const handBack = (slug: string, properties: Record<string, unknown>, body: string) =>
      store.addScript({ handle: "@demo", host: "admin.atlassian.com", slug, content: body, inputSchema: { type: "object", properties } });
    const text = { type: "string" };
    handBack(
      "fetch_invoice",
      { id: text, name: text },
      "return await builtins.download('https://admin.atlassian.com/invoices/' + args.id + '/download', { filename: args.name });",
    );
    handBack(
      "two_invoices",
      {},
      "const a = await builtins.download('https://admin.atlassian.com/invoices/a/pdf', { filename: 'a.pdf' }); const b = await builtins.download('https://admin.atlassian.com/invoices/b/pdf', { filename: 'b.pdf' }); return { count: 2, files: [a, b] };",
    );
    handBack(
      "hostile",
      { names: { type: "array", items: text } },
      "const f = await builtins.download('https://admin.atlassian.com/invoices/h/pdf'); return { files: args.names.map((filename) => ({ filename, url: f.url })) };",
    );
    handBack("dead_link", { url: text }, "return { filename: 'gone.pdf', url: args.url };");
  },
  home: "reduck-out-",
});

const newDir = async () => temporaryFolder("out-", { inside: sandbox.home });

describe("download_invoice: a file's bytes as base64", () => {
  test("without --out the result is printed whole and nothing is written; a note says --out would save it", async () => {
    const r = await runCli(["run", ...INVOICE], { env: sandbox.env, cwd: sandbox.home });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ filename: "IN-EU-002.pdf", via: "direct", size_bytes: invoicePdf("inv_42").byteLength });
    expect(Buffer.from(result.pdf_base64, "base64")).toEqual(Buffer.from(invoicePdf("inv_42")));
    expect(r.stderr).toContain("The result holds a file (IN-EU-002.pdf): add --out DIR to save it.");
    expect((await readdir(sandbox.home)).filter((f) => f.endsWith(".pdf"))).toEqual([]);
  });

  test("--out writes the PDF, and the result says where instead of carrying the bytes; again, it never overwrites", async () => {
    const dir = await newDir();
    const first = await runCli(["run", "--out", dir, ...INVOICE], { env: sandbox.env });
    expect(first.code).toBe(0);
    const result = JSON.parse(first.stdout);
    expect(result).toEqual({ filename: "IN-EU-002.pdf", via: "direct", size_bytes: invoicePdf("inv_42").byteLength, path: path.join(dir, "IN-EU-002.pdf") });
    expect(await readFile(result.path)).toEqual(Buffer.from(invoicePdf("inv_42")));
    expect(first.stderr).toContain(`Saved ${result.path}`);

    const second = await runCli(["run", "--out", dir, "--json", ...INVOICE], { env: sandbox.env });
    expect(second.code).toBe(0);
    const outcome = JSON.parse(second.stdout);
    expect(outcome).toMatchObject({ status: "completed", result: { path: path.join(dir, "IN-EU-002 (1).pdf") } });
    expect((await readdir(dir)).sort()).toEqual(["IN-EU-002 (1).pdf", "IN-EU-002.pdf"]);
  });

  test("a link planted under the file's name is not followed: the file gets the next name", async () => {
    const dir = await newDir();
    const target = path.join(sandbox.home, "precious.txt");
    await writeFile(target, "keep me");
    await symlink(target, path.join(dir, "IN-EU-002.pdf"));
    const r = await runCli(["run", "--out", dir, ...INVOICE], { env: sandbox.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).path).toBe(path.join(dir, "IN-EU-002 (1).pdf"));
    expect(await readFile(target, "utf8")).toBe("keep me");
  });

  test("--out creates the folder; a file in its place is refused before anything runs (exit 2)", async () => {
    const dir = path.join(await newDir(), "new", "folder");
    const made = await runCli(["run", "--out", dir, ...INVOICE], { env: sandbox.env });
    expect(made.code).toBe(0);
    expect(await readdir(dir)).toEqual(["IN-EU-002.pdf"]);

    const file = path.join(sandbox.home, "not-a-folder");
    await writeFile(file, "x");
    const before = sandbox.store.runs.size;
    const refused = await runCli(["run", "--out", file, ...INVOICE], { env: sandbox.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`Error: --out ${file}: it is a file, not a folder\n`);
    expect(sandbox.store.runs.size).toBe(before);
  });
});

describe("a managed browser's download: { filename, url }", () => {
  test("is fetched from the sandbox's URL into --out, and the result gains path", async () => {
    const dir = await newDir();
    const r = await runCli(["run", "--browser", "managed", "--out", dir, "--script", "admin.atlassian.com/fetch_invoice", "id=inv_7", "name=invoice.pdf"], {
      env: sandbox.env,
    });
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toEqual({
      filename: "invoice.pdf",
      url: expect.stringMatching(new RegExp(`^${sandbox.server.url}/downloads/`)),
      path: path.join(dir, "invoice.pdf"),
    });
    expect(await readFile(result.path)).toEqual(Buffer.from(invoicePdf("inv_7")));
  });

  test("without --out the url is printed and nothing is fetched or written", async () => {
    const r = await runCli(["run", "--browser", "managed", "--script", "admin.atlassian.com/fetch_invoice", "id=inv_8", "name=invoice.pdf"], {
      env: sandbox.env,
      cwd: sandbox.home,
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ filename: "invoice.pdf", url: expect.any(String) });
    expect(r.stderr).toContain("add --out DIR to save it");
  });

  test("files anywhere in the result are saved, for every step of several", async () => {
    const dir = await newDir();
    const r = await runCli(
      [
        "run",
        "--browser",
        "managed",
        "--out",
        dir,
        "--json",
        "--script",
        "admin.atlassian.com/two_invoices",
        "--script",
        "admin.atlassian.com/fetch_invoice",
        "id=c",
        "name=a.pdf",
      ],
      { env: sandbox.env },
    );
    expect(r.code, r.stderr).toBe(0);
    const batch = JSON.parse(r.stdout);
    expect(batch.runs[0].result.files.map((f: { path: string }) => path.basename(f.path))).toEqual(["a.pdf", "b.pdf"]);
    expect(path.basename(batch.runs[1].result.path)).toBe("a (1).pdf");
    expect((await readdir(dir)).sort()).toEqual(["a (1).pdf", "a.pdf", "b.pdf"]);
  });

  test("hostile names from the server land inside --out, as plain names", async () => {
    const parent = await newDir();
    const dir = path.join(parent, "out");
    await mkdir(dir);
    const names = ["../escape.pdf", "../../../../tmp/evil.pdf", "/etc/passwd", "..", ".", "sub/dir\\win.pdf", ".hidden", "bad\u0000name\u0007.pdf"];
    const r = await runCli(["run", "--browser", "managed", "--out", dir, "--script", "admin.atlassian.com/hostile", `names=${JSON.stringify(names)}`], {
      env: sandbox.env,
    });
    expect(r.code, r.stderr).toBe(0);
    const saved = JSON.parse(r.stdout).files.map((f: { path: string }) => f.path);
    for (const p of saved) expect(path.dirname(p)).toBe(dir);
    expect(saved.map((p: string) => path.basename(p))).toEqual([
      "escape.pdf",
      "evil.pdf",
      "passwd",
      "download",
      "download (1)",
      "win.pdf",
      "hidden",
      "badname.pdf",
    ]);
    expect(await readdir(parent)).toEqual(["out"]);
  });

  test("a download that fails is reported with its reason (exit 1); the rest of the result still prints", async () => {
    const dir = await newDir();
    const r = await runCli(["run", "--out", dir, "--script", "admin.atlassian.com/dead_link", `url=${sandbox.server.url}/downloads/no-such-token`], {
      env: sandbox.env,
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ filename: "gone.pdf", url: `${sandbox.server.url}/downloads/no-such-token` });
    expect(r.stderr).toMatch(/^Error: could not save gone\.pdf: .*answered 404/m);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe("a download's redirects, followed by the rule its URL met", () => {
  /** A loopback server of this test's own (closed when it ends), counting the paths asked for. */
  async function countingServer(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
    const seen: string[] = [];
    const listening = await listenOnLoopback(
      http.createServer((req, res) => {
        seen.push(req.url!);
        answer(req, res);
      }),
    );
    onTestFinished(listening.close);
    return { url: listening.url, seen };
  }

  test("a plain-http download that redirects to another port is not followed there: that server gets no request, nothing is written (exit 1)", async () => {
    const elsewhere = await countingServer((_req, res) => res.writeHead(200, { "content-type": "application/pdf" }).end("%PDF- from elsewhere"));
    const first = await countingServer((_req, res) => res.writeHead(302, { location: `${elsewhere.url}/internal.pdf` }).end());
    const dir = await newDir();
    const url = `${first.url}/invoice.pdf`;
    const r = await runCli(["run", "--out", dir, "--script", "admin.atlassian.com/dead_link", `url=${url}`], { env: sandbox.env });
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ filename: "gone.pdf", url });
    expect(r.stderr).toContain(
      `Error: could not save gone.pdf: ${url}: not fetched: only https: URLs are, or plain http: on the download's own origin (this is ${elsewhere.url} (a redirect from ${first.url}))`,
    );
    expect(first.seen).toEqual(["/invoice.pdf"]);
    expect(elsewhere.seen).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });

  test("a redirect on the download's own origin is followed, and the file is what the last hop sent", async () => {
    const server = await countingServer((req, res) => {
      if (req.url === "/stored/invoice.pdf") res.writeHead(200, { "content-type": "application/pdf" }).end("%PDF-1.4 stored");
      else res.writeHead(307, { location: "/stored/invoice.pdf" }).end();
    });
    const dir = await newDir();
    const r = await runCli(["run", "--out", dir, "--script", "admin.atlassian.com/dead_link", `url=${server.url}/invoice.pdf`], { env: sandbox.env });
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(path.join(dir, "gone.pdf"), "utf8")).toBe("%PDF-1.4 stored");
    expect(server.seen).toEqual(["/invoice.pdf", "/stored/invoice.pdf"]);
  });
});

describe("reduck runs get RUN_ID --out DIR", () => {
  test("saves a past run's files the same way", async () => {
    const ran = await runCli(["run", "--json", ...INVOICE], { env: sandbox.env });
    const { runId } = JSON.parse(ran.stdout);
    const dir = await newDir();
    const r = await runCli(["runs", "get", runId, "--out", dir, "--json"], { env: sandbox.env });
    expect(r.code).toBe(0);
    const run = JSON.parse(r.stdout);
    expect(run.result.result).toEqual({
      filename: "IN-EU-002.pdf",
      via: "direct",
      size_bytes: invoicePdf("inv_42").byteLength,
      path: path.join(dir, "IN-EU-002.pdf"),
    });
    expect(await readFile(path.join(dir, "IN-EU-002.pdf"))).toEqual(Buffer.from(invoicePdf("inv_42")));

    const plain = await runCli(["runs", "get", runId], { env: sandbox.env, cwd: sandbox.home });
    expect(plain.stderr).toContain("add --out DIR to save it");
    expect(plain.stdout).toContain("pdf_base64");
  });
});

describe("your own browser's download: { filename, path }", () => {
  test("the browser saved it; the CLI passes the result through", async () => {
    const r = await runCli(["run", "--script", "admin.atlassian.com/fetch_invoice", "id=inv_9", "name=mine.pdf"], { env: sandbox.env });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toEqual({ filename: "mine.pdf", path: expect.stringMatching(/mine\.pdf$/) });
    expect(await readFile(result.path)).toEqual(Buffer.from(invoicePdf("inv_9")));
  });
});
