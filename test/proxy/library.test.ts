/**
 * The library over HTTPS and through proxies, against real loopback servers: a certificate of
 * our own trusted through `ca`, CONNECT tunnels for https, absolute-form forwarding for http,
 * proxy credentials, refusals, and the environment's rules (NO_PROXY, loopback).
 */
import { open } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createReduckClient, getMe, proxyFromEnv, runScript } from "../../src/index.js";
import { makeFile, patterned, sha256 } from "../support/files.js";
import { refusedPort } from "../support/scripted-server.js";
import { makeCertificate, startApi, startPlainApi, startProxy, type ApiServer, type Certificate } from "./servers.js";

const NAME = "api.reduck.test";
let certificate: Certificate;
let api: ApiServer;
const upload = patterned(3 * 1024 * 1024 + 17);
let uploadFile: string;

beforeAll(async () => {
  certificate = await makeCertificate(["127.0.0.1", NAME]);
  api = await startApi(certificate);
  uploadFile = await makeFile("upload.pdf", upload);
});
afterAll(() => api?.close());

const script = (files: Record<string, unknown> = {}) => ({ handle: "reduck", host: "a.com", slug: "s", files }) as never;

describe("HTTPS", () => {
  test("a certificate nobody vouched for is refused, and the error says how to trust it", async () => {
    const client = createReduckClient({ apiKey: "k", baseUrl: api.url, maxRetries: 0 });
    const before = api.count("GET /api/me");
    const { error } = await getMe({ client });
    expect(error?.kind).toBe("network");
    expect(error?.error).toMatch(
      new RegExp(`^the certificate of ${api.url} was not accepted \\(\\w+: .+\\): if you trust it, add its authority with the client's \`ca\` option$`),
    );
    expect(api.count("GET /api/me")).toBe(before);
  });

  test("trusted through `ca`: a catalogue call, and a run whose files (a path, an open FileHandle) arrive whole", async () => {
    const client = createReduckClient({ apiKey: "k", baseUrl: api.url, ca: certificate.cert });
    expect((await getMe({ client })).data).toMatchObject({ handle: "@ann" });
    const handle = await open(uploadFile);
    try {
      const { data, error } = await runScript({ client, script: script({ a: { path: uploadFile }, b: { handle, name: "b.pdf" } }) });
      expect(error).toBeUndefined();
      const { files, contentLength, received } = (
        data as { result: { files: Record<string, { size: number; sha256: string }>; contentLength: number; received: number } }
      ).result;
      expect(files["0:a"]).toMatchObject({ size: upload.length, sha256: sha256(upload) });
      expect(files["0:b"]).toMatchObject({ size: upload.length, sha256: sha256(upload) });
      // The length announced before the first byte is the length sent.
      expect(received).toBe(contentLength);
      expect(contentLength).toBeGreaterThan(2 * upload.length);
    } finally {
      await handle.close();
    }
  });

  test("an oauthToken function is asked before each request, with the resource it goes to", async () => {
    const resources: string[] = [];
    const client = createReduckClient({
      oauthToken: ({ resource }) => (resources.push(resource), `token-${resources.length}`),
      baseUrl: api.url,
      runBaseUrl: `${api.url}/mcp`,
      ca: certificate.cert,
    });
    await getMe({ client });
    expect(api.headers("GET /api/me")?.authorization).toBe("Bearer token-1");
    expect((await runScript({ client, script: script({ a: { path: uploadFile } }) })).error).toBeUndefined();
    expect(api.headers("POST /mcp/run")?.authorization).toBe("Bearer token-2");
    await getMe({ client });
    expect(resources).toEqual([api.url, `${api.url}/mcp`, api.url]);
  });
});

describe("through a proxy", () => {
  test("https: a catalogue call and a run with a file each go through a CONNECT tunnel", async () => {
    const proxy = await startProxy({ hosts: { [NAME]: "127.0.0.1" } });
    try {
      // The name resolves nowhere but in the proxy: an answer proves the request went through it.
      const client = createReduckClient({ apiKey: "k", baseUrl: `https://${NAME}:${api.port}`, ca: certificate.cert, proxy: proxy.url });
      expect((await getMe({ client })).error).toBeUndefined();
      const { data, error } = await runScript({ client, script: script({ a: { path: uploadFile } }) });
      expect(error).toBeUndefined();
      expect((data as any).result.files["0:a"]).toMatchObject({ sha256: sha256(upload) });
      // A run never rides on an idle connection, so it has a tunnel of its own.
      expect(proxy.tunnels).toEqual([`${NAME}:${api.port}`, `${NAME}:${api.port}`]);
      expect(proxy.forwarded).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  test("http: requests are forwarded in absolute form", async () => {
    const plain = await startPlainApi();
    const proxy = await startProxy({ hosts: { [NAME]: "127.0.0.1" } });
    try {
      // Plain http to a name that is not loopback (it resolves only inside the loopback proxy): opted in.
      const client = createReduckClient({ apiKey: "k", baseUrl: `http://${NAME}:${plain.port}`, proxy: proxy.url, allowInsecureHttp: true });
      expect((await getMe({ client })).error).toBeUndefined();
      expect((await runScript({ client, script: script({ a: Buffer.from("bytes") }) })).data).toMatchObject({ runId: "00000000-0000-4000-8001-000000000002" });
      expect(proxy.forwarded).toEqual([`http://${NAME}:${plain.port}/api/me`, `http://${NAME}:${plain.port}/run`]);
      expect(proxy.tunnels).toEqual([]);
    } finally {
      await proxy.close();
      await plain.close();
    }
  });

  test("credentials in the proxy's URL are sent to it, and never appear in a message", async () => {
    const proxy = await startProxy({ hosts: { [NAME]: "127.0.0.1" }, credentials: "ann:s3cret pass" });
    try {
      const at = proxy.url.replace("http://", "http://ann:s3cret%20pass@");
      const client = createReduckClient({ apiKey: "k", baseUrl: `https://${NAME}:${api.port}`, ca: certificate.cert, proxy: at, maxRetries: 0 });
      expect((await getMe({ client })).error).toBeUndefined();
      expect(proxy.authorizations[0]).toBe(`Basic ${Buffer.from("ann:s3cret pass").toString("base64")}`);

      const wrong = createReduckClient({
        apiKey: "k",
        baseUrl: `https://${NAME}:${api.port}`,
        ca: certificate.cert,
        proxy: proxy.url.replace("http://", "http://ann:nope@"),
        maxRetries: 0,
      });
      const refused = `the proxy ${proxy.url} would not open a connection to https://${NAME}:${api.port} (it answered 407 Proxy Authentication Required)`;
      expect((await getMe({ client: wrong })).error).toMatchObject({ kind: "network", error: refused });
      const run = await runScript({ client: wrong, script: script({ a: { path: uploadFile } }) });
      expect(run.error).toMatchObject({ kind: "network", error: refused });
      expect(JSON.stringify(run.error)).not.toContain("nope");
    } finally {
      await proxy.close();
    }
  });

  test("a proxy that is not there is named as the connection that failed", async () => {
    const port = await refusedPort();
    const client = createReduckClient({ apiKey: "k", baseUrl: `https://${NAME}`, proxy: `http://127.0.0.1:${port}`, maxRetries: 0 });
    expect((await getMe({ client })).error).toMatchObject({
      kind: "network",
      cause: "ECONNREFUSED",
      error: `could not connect to the proxy http://127.0.0.1:${port} (ECONNREFUSED)`,
    });
    expect((await runScript({ client, script: script() })).error).toMatchObject({
      error: `could not connect to the proxy http://127.0.0.1:${port} (ECONNREFUSED)`,
    });
  });

  test("proxyFromEnv: NO_PROXY sends a host direct, and loopback always goes direct", async () => {
    const proxy = await startProxy({ hosts: { [NAME]: "127.0.0.1" } });
    try {
      const env = { HTTPS_PROXY: proxy.url, NO_PROXY: `example.org,.reduck.test` };
      // Direct to a name only the proxy knows: the lookup fails here, and the proxy saw nothing.
      const exempt = createReduckClient({ apiKey: "k", baseUrl: `https://${NAME}:${api.port}`, proxy: proxyFromEnv(env), maxRetries: 0 });
      expect((await getMe({ client: exempt })).error).toMatchObject({ kind: "network", cause: "ENOTFOUND" });
      const loopback = createReduckClient({ apiKey: "k", baseUrl: api.url, ca: certificate.cert, proxy: proxyFromEnv({ HTTPS_PROXY: proxy.url }) });
      expect((await getMe({ client: loopback })).error).toBeUndefined();
      expect(proxy.tunnels).toEqual([]);
      const proxied = createReduckClient({
        apiKey: "k",
        baseUrl: `https://${NAME}:${api.port}`,
        ca: certificate.cert,
        proxy: proxyFromEnv({ https_proxy: proxy.url }),
      });
      expect((await getMe({ client: proxied })).error).toBeUndefined();
      expect(proxy.tunnels).toEqual([`${NAME}:${api.port}`]);
    } finally {
      await proxy.close();
    }
  });

  test("a fetch of your own and a proxy are not taken together; a proxy that is not http(s) is refused at once", () => {
    expect(() => createReduckClient({ apiKey: "k", fetch: globalThis.fetch, proxy: "http://127.0.0.1:3128" })).toThrow(
      "createReduckClient: give either fetch or proxy, not both: your fetch makes its own connections (give it the proxy instead)",
    );
    expect(() => createReduckClient({ apiKey: "k", proxy: "socks5://127.0.0.1:1080" })).toThrow(
      "createReduckClient: the proxy socks5://127.0.0.1:1080 is a socks5 proxy: only http:// and https:// proxies are supported",
    );
  });
});
