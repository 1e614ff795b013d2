/** proxyFromEnv: which proxy a URL goes through under the environment's variables (gh's rules). */
import { describe, expect, test } from "vitest";
import { proxyFromEnv } from "../../src/index.js";

const P = "http://proxy.corp:3128";

describe("which variable", () => {
  test.each([
    [{ HTTPS_PROXY: P }, "https://reduck.ai/api/me", P],
    [{ HTTPS_PROXY: P }, "http://reduck.ai/api/me", undefined],
    [{ HTTP_PROXY: P }, "http://reduck.ai/api/me", P],
    // As gh and stripe (Go): https never falls back to HTTP_PROXY.
    [{ HTTP_PROXY: P }, "https://reduck.ai/api/me", undefined],
    [{ https_proxy: P }, "https://reduck.ai/run", P],
    [{ http_proxy: P }, "http://reduck.ai/run", P],
    // Upper case first.
    [{ HTTPS_PROXY: P, https_proxy: "http://other:1" }, "https://reduck.ai/", P],
    [{ HTTPS_PROXY: "  ", https_proxy: P }, "https://reduck.ai/", P],
    [{}, "https://reduck.ai/", undefined],
  ])("%j: %s -> %s", (env, url, proxy) => {
    expect(proxyFromEnv(env)(url)).toBe(proxy);
  });
});

describe("NO_PROXY and loopback", () => {
  test.each([
    ["reduck.ai", "https://reduck.ai/", undefined],
    ["reduck.ai", "https://mcp.reduck.ai/", undefined],
    ["reduck.ai", "https://notreduck.ai/", P],
    [".reduck.ai", "https://mcp.reduck.ai/", undefined],
    [".reduck.ai", "https://reduck.ai/", P],
    ["*.reduck.ai", "https://mcp.reduck.ai/", undefined],
    ["REDUCK.AI", "https://reduck.ai/", undefined],
    ["example.org, reduck.ai", "https://reduck.ai/", undefined],
    ["example.org reduck.ai", "https://reduck.ai/", undefined],
    ["reduck.ai:8443", "https://reduck.ai:8443/", undefined],
    ["reduck.ai:8443", "https://reduck.ai/", P],
    ["reduck.ai:443", "https://reduck.ai/", undefined],
    ["10.0.0.0/8", "https://10.20.30.40/", undefined],
    ["10.0.0.0/8", "https://11.0.0.1/", P],
    ["192.168.1.7", "https://192.168.1.7:9000/", undefined],
    ["fd00::/8", "https://[fd12::1]/", undefined],
    ["fd00::/8", "https://[fe80::1]/", P],
    ["*", "https://anything.example/", undefined],
    ["", "https://reduck.ai/", P],
  ])("NO_PROXY=%j: %s -> %s", (noProxy, url, proxy) => {
    expect(proxyFromEnv({ HTTPS_PROXY: P, NO_PROXY: noProxy })(url)).toBe(proxy);
    expect(proxyFromEnv({ HTTPS_PROXY: P, no_proxy: noProxy })(url)).toBe(proxy);
  });

  test.each(["https://localhost:4010/", "https://app.localhost/", "https://127.0.0.1:4010/", "https://127.1.2.3/", "https://[::1]:4010/"])(
    "%s is always direct (a local sandbox behind a company proxy)",
    (url) => {
      expect(proxyFromEnv({ HTTPS_PROXY: P })(url)).toBeUndefined();
    },
  );
});

test("a proxy variable that is not an http(s) URL is named when the rules are read", () => {
  expect(() => proxyFromEnv({ HTTPS_PROXY: "socks5://proxy:1080" })).toThrow(
    "HTTPS_PROXY: the proxy socks5://proxy:1080 is a socks5 proxy: only http:// and https:// proxies are supported",
  );
  expect(() => proxyFromEnv({ http_proxy: "http://[bad" })).toThrow('http_proxy: the proxy "http://[bad" is not a URL (expected http://host:port)');
  // No scheme means http://, as curl and Go read it.
  expect(proxyFromEnv({ HTTPS_PROXY: "proxy.corp:3128" })("https://reduck.ai/")).toBe("proxy.corp:3128");
});
