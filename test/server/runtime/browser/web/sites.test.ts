// A folder of saved pages as a host of the simulated web: its files by path, and the walls: a path
// or a symlink that leads out of the folder is refused, a missing folder or a host on this machine
// is an error at start, and the host is the simulated web's own again once the site stops.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { answerWeb } from "./index.js";
import { checkSites, serveSites } from "./sites.js";
import { webDocument } from "../../simulated/documents.js";

let scratch: string;
let site: string;
let secret: string;
let stop: (() => void) | undefined;
beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), "reduck-sites-"));
  site = path.join(scratch, "shop");
  mkdirSync(path.join(site, "cart"), { recursive: true });
  mkdirSync(path.join(site, "assets"));
  writeFileSync(path.join(site, "index.html"), "<!doctype html><title>Shop</title><script>document.title = 'Shop!';</script>");
  writeFileSync(path.join(site, "cart", "index.html"), "<title>Cart</title>");
  writeFileSync(path.join(site, "about.html"), "<title>About</title>");
  writeFileSync(path.join(site, "assets", "app.css"), "body { color: red }");
  writeFileSync(path.join(site, "assets", "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(path.join(site, "assets", "my file.txt"), "spaced");
  secret = path.join(scratch, "secret.txt");
  writeFileSync(secret, "the machine's own file");
  symlinkSync(secret, path.join(site, "assets", "leak.txt"));
  symlinkSync(scratch, path.join(site, "up"));
  symlinkSync(path.join(site, "about.html"), path.join(site, "assets", "about-link.html"));
});
afterEach(() => stop?.());
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const text = (url: string) => {
  const { status, headers, body } = answerWeb(new URL(url));
  return { status, type: headers["content-type"], body: typeof body === "string" ? body : Buffer.from(body).toString("hex") };
};

describe("a saved site", () => {
  it("serves the folder's files as https://HOST/..., index.html for a folder, NAME.html for a path without one", () => {
    stop = serveSites(checkSites({ "Shop.Example": site }));
    expect(text("https://shop.example/")).toMatchObject({
      status: 200,
      type: "text/html; charset=utf-8",
      body: expect.stringContaining("<title>Shop</title>"),
    });
    expect(text("https://shop.example/cart/").body).toBe("<title>Cart</title>");
    expect(text("https://shop.example/cart?x=1").body).toBe("<title>Cart</title>");
    expect(text("https://shop.example/about").body).toBe("<title>About</title>");
    expect(text("http://shop.example/assets/app.css")).toEqual({ status: 200, type: "text/css; charset=utf-8", body: "body { color: red }" });
    expect(text("https://shop.example/assets/logo.png")).toEqual({ status: 200, type: "image/png", body: "89504e47" });
    expect(text("https://shop.example/assets/my%20file.txt").body).toBe("spaced");
    expect(text("https://shop.example/assets/about-link.html").body).toBe("<title>About</title>");
    expect(text("https://shop.example/nope.html").status).toBe(404);
    // Other hosts are the simulated web's as before.
    expect(text("https://example.com/").body).toContain("Example Domain");
  });

  it("is what the simulated page opens, its inline scripts with it", () => {
    stop = serveSites(checkSites({ "shop.example": site }));
    const document = webDocument("https://shop.example/");
    expect(document).toMatchObject({ status: 200, html: expect.stringContaining("<title>Shop</title>") });
    expect(document !== "download" && document.code).toContain("document.title = 'Shop!';");
  });

  it.each([
    ["an encoded slash", "https://shop.example/assets%2f..%2f..%2fsecret.txt"],
    ["a backslash", "https://shop.example/assets/..%5c..%5csecret.txt"],
    ["a symlink to a file outside", "https://shop.example/assets/leak.txt"],
    ["a symlink to a folder outside", "https://shop.example/up/secret.txt"],
    ["a malformed escape", "https://shop.example/%E0%A4%A"],
  ])("refuses %s, and never shows the file", (_, url) => {
    stop = serveSites(checkSites({ "shop.example": site }));
    const answer = text(url);
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain("the machine's own file");
    expect(answer.body).not.toContain(scratch);
  });

  it.each(["https://shop.example/../../secret.txt", "https://shop.example/%2e%2e/%2E%2E/secret.txt"])(
    "%s never leaves the folder: the URL itself drops the ..",
    (url) => {
      stop = serveSites(checkSites({ "shop.example": site }));
      expect(new URL(url).pathname).toBe("/secret.txt");
      expect(text(url).status).toBe(404);
    },
  );

  it("stops being served when stopped: the host is the simulated web's 404 again", () => {
    serveSites(checkSites({ "shop.example": site }))();
    expect(text("https://shop.example/").body).toContain("not in the sandbox's simulated web");
  });

  it("refuses a second folder for a host served already", () => {
    stop = serveSites(checkSites({ "shop.example": site }));
    expect(() => serveSites(checkSites({ "shop.example": path.join(site, "cart") }))).toThrow(
      "site shop.example: already served from another folder by a sandbox of this process",
    );
  });

  it.each([
    [{ "shop.example": path.join(scratch ?? "", "missing") }, /^site shop\.example: the folder ".*missing" does not exist: save the pages there first/],
    [{ localhost: "." }, 'site "localhost": the host must be a host name off this machine'],
    [{ "127.0.0.1": "." }, 'site "127.0.0.1": the host must be a host name off this machine'],
    [{ "shop.example:8080": "." }, 'site "shop.example:8080": the host must be a host name off this machine'],
    [{ "https://shop.example": "." }, 'site "https://shop.example": the host must be a host name'],
    [{ "sandbox.invalid": "." }, 'site "sandbox.invalid": the host must be a host name'],
  ])("refuses %o at start", (sites, message) => {
    const given = Object.fromEntries(Object.entries(sites).map(([host, dir]) => [host, dir.endsWith("missing") ? path.join(scratch, "missing") : dir]));
    expect(() => checkSites(given)).toThrow(message);
  });

  it("refuses a file given as the folder", () => {
    expect(() => checkSites({ "shop.example": secret })).toThrow(`site shop.example: "${secret}" is not a folder`);
  });
});
