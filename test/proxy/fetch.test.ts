/**
 * connectionFetch: the fetch the CLI's sign-in and downloads use, over our Connections. Against a
 * real HTTPS server on loopback whose name resolves only inside a loopback proxy: what fetch's
 * callers rely on (bodies, headers, redirects, a streamed body, aborts), and failures that keep
 * the client's words.
 */
import { once } from "node:events";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { describeFailure } from "../../src/core/errors.js";
import { connectionFetch } from "../../src/core/wire/fetch.js";
import { Connections } from "../../src/core/wire/http.js";
import { refusedPort } from "../support/scripted-server.js";
import { makeCertificate, startProxy, type Certificate, type ProxyServer } from "./servers.js";

const NAME = "files.reduck.test";
let certificate: Certificate;
let server: https.Server;
let origin: string;
let proxy: ProxyServer;
/** Resolved with each request the server receives (for the tests that wait for one). */
let arrived: (req: import("node:http").IncomingMessage) => void = () => undefined;

beforeAll(async () => {
  certificate = await makeCertificate([NAME]);
  server = https.createServer({ cert: certificate.cert, key: certificate.key }, (req, res) => {
    arrived(req);
    const url = new URL(req.url!, "https://x");
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      switch (url.pathname) {
        case "/echo":
          res.writeHead(201, "Made", { "content-type": "application/json", "set-cookie": ["a=1; Path=/", "b=2; Path=/"] });
          return res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
        case "/moved":
          res.writeHead(Number(url.searchParams.get("status")), { location: url.searchParams.get("to")! });
          return res.end("moved");
        case "/empty":
          res.writeHead(204);
          return res.end();
        case "/stall": // the headers and a first chunk, then nothing
          res.writeHead(200, { "content-type": "application/octet-stream" });
          return res.write("first");
        case "/cut": // promises 1000 bytes, sends 5, and hangs up
          res.writeHead(200, { "content-length": "1000" });
          res.write("short");
          return setImmediate(() => res.socket?.destroy());
        case "/silent": // never answers
          return;
        default:
          res.writeHead(404);
          res.end();
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  origin = `https://${NAME}:${(server.address() as AddressInfo).port}`;
  proxy = await startProxy({ hosts: { [NAME]: "127.0.0.1" } });
});
afterAll(async () => {
  await proxy?.close();
  server?.closeAllConnections();
  server?.close();
});

const proxied = () => connectionFetch(new Connections({ proxy: proxy.url, ca: certificate.cert }));

describe("what fetch's callers rely on", () => {
  test("a string, URLSearchParams or bytes as the body, with fetch's content types; a Response with status, headers and JSON; a connection per request", async () => {
    const fetch = proxied();
    const tunnels = proxy.tunnels.length;
    const string = await fetch(`${origin}/echo`, { method: "post", body: "hello", headers: { "x-one": "1" } });
    expect(string).toBeInstanceOf(Response);
    expect([string.status, string.statusText, string.ok, string.url, string.redirected]).toEqual([201, "Made", true, `${origin}/echo`, false]);
    expect(string.headers.get("content-type")).toBe("application/json");
    expect(string.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    const echoed = await string.json();
    expect(echoed).toMatchObject({
      method: "POST",
      body: "hello",
      headers: { "x-one": "1", "content-type": "text/plain;charset=UTF-8", "content-length": "5", accept: "*/*" },
    });

    const form = await (await fetch(`${origin}/echo`, { method: "POST", body: new URLSearchParams({ grant_type: "refresh_token", token: "a b" }) })).json();
    expect(form).toMatchObject({ body: "grant_type=refresh_token&token=a+b", headers: { "content-type": "application/x-www-form-urlencoded;charset=UTF-8" } });
    const bytes = await (
      await fetch(new URL(`${origin}/echo`), {
        method: "PUT",
        body: new TextEncoder().encode("bytes"),
        headers: new Headers({ "Content-Type": "application/pdf" }),
      })
    ).json();
    expect(bytes).toMatchObject({ method: "PUT", body: "bytes", headers: { "content-type": "application/pdf" } });
    // No keep-alive: each request had a tunnel of its own.
    const tunnel = new URL(origin).host;
    expect(proxy.tunnels.slice(tunnels)).toEqual([tunnel, tunnel, tunnel]);
  });

  test("redirects: followed (a 303 after a POST becomes a GET without its body), returned as they are with redirect: manual, refused with redirect: error", async () => {
    const fetch = proxied();
    const to = encodeURIComponent(`${origin}/echo`);
    const followed = await fetch(`${origin}/moved?status=303&to=${to}`, { method: "POST", body: "dropped" });
    expect(followed.redirected).toBe(true);
    expect(followed.url).toBe(`${origin}/echo`);
    expect(await followed.json()).toMatchObject({ method: "GET", body: "" });
    const kept = await fetch(`${origin}/moved?status=307&to=${to}`, { method: "POST", body: "kept" });
    expect(await kept.json()).toMatchObject({ method: "POST", body: "kept" });

    const manual = await fetch(`${origin}/moved?status=302&to=${to}`, { redirect: "manual" });
    expect([manual.status, manual.headers.get("location"), await manual.text()]).toEqual([302, `${origin}/echo`, "moved"]);
    await expect(fetch(`${origin}/moved?status=302&to=${to}`, { redirect: "error" })).rejects.toThrow(TypeError);
  });

  test("a status without a body (204) has a null body; so does the answer to HEAD", async () => {
    const fetch = proxied();
    expect((await fetch(`${origin}/empty`)).body).toBeNull();
    expect((await fetch(`${origin}/echo`, { method: "HEAD" })).body).toBeNull();
  });

  test("the body streams: a chunk can be read while the server is still sending", async () => {
    const response = await proxied()(`${origin}/stall`);
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("first");
    await reader.cancel();
  });

  test("what it does not take is refused before anything is sent", async () => {
    const fetch = proxied();
    await expect(fetch(new Request(`${origin}/echo`))).rejects.toThrow("connectionFetch takes a URL");
    await expect(fetch(`${origin}/echo`, { method: "POST", body: new Blob(["x"]) })).rejects.toThrow("not a stream, Blob or FormData");
    await expect(fetch(`${origin}/echo`, { body: "x" })).rejects.toThrow("a GET request cannot have a body");
  });
});

describe("aborts", () => {
  test("before the answer: rejects with the signal's reason", async () => {
    const controller = new AbortController();
    const stop = new Error("stopped by the caller");
    const sent = new Promise<void>((resolve) => (arrived = () => resolve()));
    const pending = proxied()(`${origin}/silent`, { signal: controller.signal });
    await sent;
    controller.abort(stop);
    await expect(pending).rejects.toBe(stop);
    await expect(proxied()(`${origin}/silent`, { signal: controller.signal })).rejects.toBe(stop);
  });

  test("while the body arrives: reading it fails with the signal's reason", async () => {
    const controller = new AbortController();
    const response = await proxied()(`${origin}/stall`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    const stop = new Error("enough");
    controller.abort(stop);
    await expect(reader.read()).rejects.toBe(stop);
  });
});

describe("failures keep the client's words", () => {
  const words = async (fetch: typeof globalThis.fetch, url: string) => {
    const err = await fetch(url).catch((e) => e);
    expect(err).toBeInstanceOf(TypeError);
    return describeFailure(err, url).error;
  };

  test("a proxy that is not there", async () => {
    const port = await refusedPort();
    const error = await words(connectionFetch(new Connections({ proxy: `http://127.0.0.1:${port}` })), `${origin}/echo`);
    expect(error).toMatchObject({ cause: "ECONNREFUSED", error: `could not connect to the proxy http://127.0.0.1:${port} (ECONNREFUSED)` });
  });

  test("a proxy that refuses the tunnel", async () => {
    const guarded = await startProxy({ hosts: { [NAME]: "127.0.0.1" }, credentials: "ann:pw" });
    try {
      const error = await words(connectionFetch(new Connections({ proxy: guarded.url, ca: certificate.cert })), `${origin}/echo`);
      expect(error.error).toBe(`the proxy ${guarded.url} would not open a connection to ${origin} (it answered 407 Proxy Authentication Required)`);
    } finally {
      await guarded.close();
    }
  });

  test("a certificate nobody vouched for", async () => {
    const error = await words(connectionFetch(new Connections({ proxy: proxy.url })), `${origin}/echo`);
    expect(error.error).toMatch(
      new RegExp(
        `^the certificate of ${origin} through the proxy ${proxy.url} was not accepted \\(\\w+: .+\\): if you trust it, add its authority with the client's \`ca\` option$`,
      ),
    );
  });

  test("an answer cut short: reading its body fails, said as a closed connection", async () => {
    const response = await proxied()(`${origin}/cut`);
    const err = await response.arrayBuffer().catch((e) => e);
    expect(describeFailure(err, `${origin}/cut`, "body").error).toMatchObject({
      cause: "ECONNRESET",
      error: `${origin} closed the connection before the whole answer arrived (ECONNRESET)`,
    });
  });
});
