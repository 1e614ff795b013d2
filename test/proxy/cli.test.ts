/**
 * The built CLI and agent tool behind a proxy, as users configure one: HTTPS_PROXY, HTTP_PROXY
 * and NO_PROXY (lower case too), with a certificate of our own trusted through
 * NODE_EXTRA_CA_CERTS. The API's name (`*.reduck.test`) resolves only inside the proxy, so an
 * answer proves the request went through it.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { makeDesktop, makeFile, patterned, sha256, temporaryFolder } from "../support/files.js";
import { cliEnv } from "../support/sandbox.js";
import { callTool, connectClient, mcpEnv, sendEmail, startSandbox, type Sandbox } from "../mcp/support.js";
import { makeCertificate, startApi, startProxy, type ApiServer, type Certificate, type ProxyServer } from "./servers.js";

const NAME = "api.reduck.test";
let certificate: Certificate;
let api: ApiServer;
let proxy: ProxyServer;
let user: Record<string, string>;

beforeAll(async () => {
  certificate = await makeCertificate([NAME]);
  api = await startApi(certificate, NAME);
  proxy = await startProxy({ hosts: { [NAME]: "127.0.0.1", "sandbox.reduck.test": "127.0.0.1" } });
  user = cliEnv({ url: api.url, home: temporaryFolder("reduck-proxy-home-"), apiKey: "rk_test_key_behind_a_proxy" }).env;
});
afterAll(async () => {
  await proxy?.close();
  await api?.close();
});

const env = (extra: Record<string, string>) => ({
  ...user,
  NODE_EXTRA_CA_CERTS: certificate.certFile,
  ...extra,
});

describe("reduck", () => {
  test("HTTPS_PROXY: the contract and the run with its file go through the proxy", async () => {
    const bytes = patterned(2 * 1024 * 1024);
    const file = await makeFile("contract.pdf", bytes);
    const tunnels = proxy.tunnels.length;
    const { code, stdout, stderr } = await runCli(["run", "--script", "reduck/a.com/s", `file:document=${file}`], { env: env({ HTTPS_PROXY: proxy.url }) });
    expect(stderr).toBe("run 0d4e8619-5b1c-4c1e-9d55-0000000000a1\n");
    expect(code).toBe(0);
    expect(JSON.parse(stdout).files["0:document"]).toMatchObject({ size: bytes.length, sha256: sha256(bytes) });
    expect(proxy.tunnels.slice(tunnels)).toEqual([`${NAME}:${api.port}`, `${NAME}:${api.port}`]);
  });

  test("https_proxy in lower case works the same", async () => {
    const tunnels = proxy.tunnels.length;
    const { code, stdout } = await runCli(["whoami", "--json"], { env: env({ https_proxy: proxy.url }) });
    expect(code).toBe(0);
    expect(stdout).toContain("@ann");
    expect(proxy.tunnels.length).toBe(tunnels + 1);
  });

  test("NO_PROXY sends the host direct (where its name does not resolve), and the proxy sees nothing", async () => {
    const tunnels = proxy.tunnels.length;
    const { code, stderr } = await runCli(["whoami"], { env: env({ HTTPS_PROXY: proxy.url, NO_PROXY: "localhost,.reduck.test" }) });
    expect(code).toBe(1);
    expect(stderr).toContain(`could not connect to ${api.url} (ENOTFOUND)`);
    expect(proxy.tunnels.length).toBe(tunnels);
  });

  test("a certificate that is not trusted is refused, and the error says how to trust it", async () => {
    const { NODE_EXTRA_CA_CERTS: _, ...untrusting } = env({ HTTPS_PROXY: proxy.url });
    const { code, stderr } = await runCli(["whoami"], { env: untrusting });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(`^Error: the certificate of ${api.url} through the proxy ${proxy.url} was not accepted \\(.+\\): .* In the CLI: NODE_EXTRA_CA_CERTS=FILE`),
    );
  });

  test("a proxy variable that is not an http(s) URL is a usage error, before anything is sent", async () => {
    const { code, stderr } = await runCli(["whoami"], { env: env({ HTTPS_PROXY: "socks5://127.0.0.1:1080" }) });
    expect(code).toBe(2);
    expect(stderr).toBe("Error: HTTPS_PROXY: the proxy socks5://127.0.0.1:1080 is a socks5 proxy: only http:// and https:// proxies are supported\n");
  });
});

describe("reduck mcp", () => {
  let sandbox: Sandbox;
  let desktop: string;
  const banner = patterned(300_000);
  beforeAll(async () => {
    desktop = await makeDesktop({ "banner.png": banner });
    sandbox = await startSandbox(desktop);
  });
  afterAll(() => sandbox?.close());

  test("HTTP_PROXY: a catalogue call and a managed-browser upload go through the proxy", async () => {
    const port = new URL(sandbox.url).port;
    const { client } = await connectClient(
      await mcpEnv({
        REDUCK_API_URL: `http://sandbox.reduck.test:${port}`,
        REDUCK_API_KEY: sandbox.store.demo.apiKey,
        REDUCK_DESKTOP: desktop,
        HTTP_PROXY: proxy.url,
        // Plain http to a name that is not loopback (it resolves only inside the loopback proxy): opted in.
        REDUCK_ALLOW_INSECURE_HTTP: "1",
      }),
    );
    try {
      const forwarded = proxy.forwarded.length;
      const list = await callTool(client, "list_scripts", { handle: "reduck", host: "mail.google.com" });
      expect(list.isError).toBe(false);
      const run = await callTool(client, "run_script", sendEmail({ attachment: { relativePath: "banner.png" } }, { browser: "managed" }));
      expect(run.isError).toBe(false);
      expect(sandbox.store.runs.get(run.json().runId)!.files[0]).toMatchObject({ via: "bytes", size: banner.length, sha256: sha256(banner) });
      const seen = proxy.forwarded.slice(forwarded).map((u) => new URL(u).pathname);
      expect(seen).toContain("/api/scripts/reduck");
      expect(seen).toContain("/run");
    } finally {
      await client.close();
    }
  });
});
