import { once } from "node:events";
import { readdir, readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { fetchInto, filesIn, safeFileName } from "../../../src/cli/run/downloads.js";
import { closestMatches, editDistance } from "../../../src/core/words/suggest.js";
import { temporaryFolder } from "../../support/files.js";

describe("safeFileName", () => {
  it("keeps a plain name and strips anything that could leave the folder", () => {
    expect(safeFileName("invoice.pdf")).toBe("invoice.pdf");
    expect(safeFileName("../../.ssh/authorized_keys")).toBe("authorized_keys");
    expect(safeFileName("C:\\Windows\\evil.exe")).toBe("evil.exe");
    expect(safeFileName("..")).toBe("download");
    expect(safeFileName("")).toBe("download");
    expect(safeFileName("a\u0000b\u001b.pdf")).toBe("ab.pdf");
    expect(safeFileName('what?<is>"this".pdf')).toBe("what__is__this_.pdf");
    expect(safeFileName("NUL.txt")).toBe("_NUL.txt");
    expect(Buffer.byteLength(safeFileName(`${"é".repeat(300)}.pdf`))).toBeLessThanOrEqual(200);
    expect(safeFileName(`${"é".repeat(300)}.pdf`).endsWith(".pdf")).toBe(true);
  });
});

describe("filesIn", () => {
  it("finds downloads anywhere, and base64 bytes where the contract or the naming says so", () => {
    const result = {
      receipt: { filename: "r.pdf", url: "https://files.example/r" },
      list: [{ filename: "a.csv", url: "http://files.example/a" }],
      pdf_base64: "AAAA",
      filename: "inv.pdf",
      thumbnail: "BBBB",
      not_a_file: { filename: "x", url: "ftp://nope" },
    };
    const schema = { properties: { thumbnail: { contentEncoding: "base64", contentMediaType: "image/png" } } };
    const found = filesIn(result, schema).map((f) => [f.kind, f.filename]);
    expect(found).toEqual([
      ["download", "r.pdf"],
      ["download", "a.csv"],
      ["base64", "inv.pdf"],
      ["base64", "inv.pdf"],
    ]);
    expect(filesIn({ data_base64: "AAAA" }, undefined)).toEqual([]);
    expect(filesIn({ image: "AAAA" }, { properties: { image: { contentEncoding: "base64", contentMediaType: "image/png" } } })[0]).toMatchObject({
      filename: "image.png",
    });
  });
});

describe("suggestions", () => {
  it("count a swap of neighbours as one edit", () => {
    expect(editDistance("rnus", "runs")).toBe(1);
    expect(editDistance("rnus", "run")).toBe(2);
    expect(closestMatches("rnus", ["run", "runs", "scripts"])).toEqual(["runs", "run"]);
    expect(closestMatches("zzzzzz", ["run", "runs"])).toEqual([]);
  });
});

describe("fetchInto", () => {
  it("writes a data: URL's bytes (a trace's screenshot may be one) without the network", async () => {
    const dir = temporaryFolder("reduck-fetch-into-");
    const saved = await fetchInto(dir, "shot.png", `data:image/png;base64,${Buffer.from("png bytes").toString("base64")}`);
    expect(saved).toBe(path.join(dir, "shot.png"));
    expect(await readFile(saved, "utf8")).toBe("png bytes");
  });

  it("a file that cannot be written lets the download's connection go instead of leaving it open", async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = http.createServer((req, res) => {
      req.socket.once("close", closed);
      res.writeHead(200, { "content-type": "application/pdf" });
      res.write("the first part, and then nothing more"); // an answer that would never end
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const missing = path.join(os.tmpdir(), `reduck-no-such-folder-${process.pid}`, "deeper");
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/big.pdf`;
      await expect(fetchInto(missing, "big.pdf", url)).rejects.toMatchObject({ code: "ENOENT" });
      await connectionClosed;
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  describe("redirects, followed by hand by the rule the URL met", () => {
    /** A loopback server (closed when the test ends) answering each request by `answer`, counting them. */
    async function loopbackServer(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
      const seen: string[] = [];
      const server = http.createServer((req, res) => {
        seen.push(req.url!);
        answer(req, res);
      });
      server.listen(0, "127.0.0.1");
      await once(server, "listening");
      onTestFinished(() => {
        server.closeAllConnections();
        server.close();
      });
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
    }
    const redirect = (res: http.ServerResponse, location: string) => res.writeHead(302, { location }).end();

    it("a plain-http download that redirects to another origin (another port) is refused: the second server gets no request, no file is left", async () => {
      const elsewhere = await loopbackServer((_req, res) => res.writeHead(200, { "content-type": "application/pdf" }).end("%PDF- not for you"));
      const first = await loopbackServer((_req, res) => redirect(res, `${elsewhere.url}/internal.pdf`));
      const dir = temporaryFolder("reduck-fetch-redirect-");
      await expect(fetchInto(dir, "invoice.pdf", `${first.url}/invoice.pdf`)).rejects.toThrow(
        `${first.url}/invoice.pdf: not fetched: only https: URLs are, or plain http: on the download's own origin (this is ${elsewhere.url} (a redirect from ${first.url}))`,
      );
      expect(first.seen).toEqual(["/invoice.pdf"]);
      expect(elsewhere.seen).toEqual([]);
      expect(await readdir(dir)).toEqual([]);
    });

    it("a redirect on the download's own origin is followed, and the file holds the last answer's bytes", async () => {
      const server = await loopbackServer((req, res) => {
        if (req.url === "/final.pdf") res.writeHead(200, { "content-type": "application/pdf" }).end("%PDF-1.4 the invoice");
        else redirect(res, "/final.pdf");
      });
      const dir = temporaryFolder("reduck-fetch-redirect-");
      const saved = await fetchInto(dir, "invoice.pdf", `${server.url}/invoice.pdf`);
      expect(await readFile(saved, "utf8")).toBe("%PDF-1.4 the invoice");
      expect(server.seen).toEqual(["/invoice.pdf", "/final.pdf"]);
    });

    it("five redirects are followed and a sixth is not", async () => {
      const server = await loopbackServer((req, res) => {
        const n = Number(req.url!.slice(1));
        if (n === 5) res.writeHead(200).end("five");
        else redirect(res, `/${n + 1}`);
      });
      const dir = temporaryFolder("reduck-fetch-redirect-");
      expect(await readFile(await fetchInto(dir, "five.bin", `${server.url}/0`), "utf8")).toBe("five");
      server.seen.length = 0;
      await expect(fetchInto(dir, "six.bin", `${server.url}/-1`)).rejects.toThrow(`not fetched: ${server.url} redirected more than 5 times`);
      expect(server.seen).toEqual(["/-1", "/0", "/1", "/2", "/3", "/4"]);
      expect(await readdir(dir)).toEqual(["five.bin"]);
    });
  });

  describe("a server that stops sending", () => {
    const saved = process.env.REDUCK_TIMEOUT_MS;
    afterEach(() => {
      if (saved === undefined) delete process.env.REDUCK_TIMEOUT_MS;
      else process.env.REDUCK_TIMEOUT_MS = saved;
    });

    /** A server that answers `send` (or nothing at all) and then goes quiet for good. */
    async function quietServer(send?: string) {
      const server = http.createServer((_req, res) => {
        if (send === undefined) return; // never even answers
        res.writeHead(200, { "content-type": "application/pdf" });
        res.write(send);
      });
      server.listen(0, "127.0.0.1");
      await once(server, "listening");
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/invoice.pdf`;
      return { url, close: () => (server.closeAllConnections(), server.close()) };
    }

    it.each([
      ["before it answers", undefined],
      ["half way through the file", "%PDF-1.4 the first part"],
    ])("is given up %s, after REDUCK_TIMEOUT_MS of silence, and leaves no partial file", async (_when, send) => {
      process.env.REDUCK_TIMEOUT_MS = "300";
      const server = await quietServer(send);
      const dir = temporaryFolder("reduck-fetch-stall-");
      try {
        await expect(fetchInto(dir, "invoice.pdf", server.url)).rejects.toThrow(`${server.url} sent nothing for 0.3 s: the download was given up`);
        expect(await readdir(dir)).toEqual([]);
      } finally {
        server.close();
      }
    });
  });
});
