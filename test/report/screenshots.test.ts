/**
 * fetchScreenshot: a screenshot's image within bounds, from a server of the test's own over
 * loopback. Only `https:` URLs or the service's own `http:` origin are fetched, no credential is
 * sent, and only the bytes of an image are kept, whatever the server calls them.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fetchScreenshot, imageTypeOf } from "../../src/report/screenshots.js";
import { type Listening, listenOnLoopback } from "../support/loopback.js";

const PNG = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(2000, 3)]);
let server: Listening;
const seen: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = await listenOnLoopback(
    http.createServer((request, response) => {
      seen.push(request.headers);
      if (request.url === "/shot.png") return response.end(PNG);
      if (request.url === "/page.svg") return response.writeHead(200, { "content-type": "image/png" }).end('<svg onload="alert(1)"/>');
      if (request.url === "/huge.png") {
        // No length declared: the bound holds on what arrives.
        response.write(PNG);
        return response.end(Buffer.alloc(100_000));
      }
      response.writeHead(404).end();
    }),
  );
});
afterAll(() => server?.close());

describe("fetchScreenshot", () => {
  test("the service's own http: origin: the PNG, with no credential sent", async () => {
    const got = await fetchScreenshot(`${server.url}/shot.png`, { httpOrigins: [`${server.url}/api`] });
    expect(got).toEqual({ bytes: PNG, type: "image/png" });
    expect(seen.at(-1)!.authorization).toBeUndefined();
    expect(seen.at(-1)!["x-api-key"]).toBeUndefined();
  });

  test("an http: URL on another origin is never fetched (a trace cannot send this machine around its network)", async () => {
    const before = seen.length;
    expect(await fetchScreenshot(`${server.url}/shot.png`)).toEqual({
      problem: `not fetched: only https: URLs are, or the service's own origin (this is ${server.url}); a service of your own on plain http is named with the httpOrigins option`,
      kind: "refused",
    });
    expect(await fetchScreenshot("file:///etc/passwd")).toEqual({
      problem:
        "not fetched: only https: URLs are, or the service's own origin (this is file); a service of your own on plain http is named with the httpOrigins option",
      kind: "refused",
    });
    expect(seen.length).toBe(before);
  });

  test("bytes that are no image are refused, whatever the server called them; so is more than maxBytes, or an answer other than 200", async () => {
    const own = { httpOrigins: [server.url] };
    expect(await fetchScreenshot(`${server.url}/page.svg`, own)).toEqual({
      problem: `what ${server.url} sent is not a PNG, JPEG, GIF or WebP image`,
      kind: "not_image",
    });
    expect(await fetchScreenshot(`${server.url}/huge.png`, { ...own, maxBytes: 50_000 })).toEqual({
      problem: "the screenshot is larger than 49 KiB",
      kind: "too_large",
    });
    expect(await fetchScreenshot(`${server.url}/gone.png`, own)).toEqual({ problem: `${server.url} answered 404`, kind: "gone" });
  });

  test("a data: URL is decoded, within the same bounds", async () => {
    expect(await fetchScreenshot(`data:image/png;base64,${PNG.toString("base64")}`)).toEqual({ bytes: PNG, type: "image/png" });
    expect(await fetchScreenshot(`data:image/png;base64,${PNG.toString("base64")}`, { maxBytes: 100 })).toEqual({
      problem: "the screenshot is larger than 1 KiB",
      kind: "too_large",
    });
    expect(await fetchScreenshot("data:image/svg+xml;base64,PHN2Zz4=")).toEqual({
      problem: "the screenshot's data: URL is not a PNG, JPEG, GIF or WebP image",
      kind: "not_image",
    });
  });

  test("image types by their first bytes", () => {
    expect(imageTypeOf(PNG)).toBe("image/png");
    expect(imageTypeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(imageTypeOf(Buffer.from("GIF89a"))).toBe("image/gif");
    expect(imageTypeOf(Buffer.from("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(imageTypeOf(Buffer.from("<svg/>"))).toBeUndefined();
  });
});
