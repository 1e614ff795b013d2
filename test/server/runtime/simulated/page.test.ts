// The simulated page as a script meets it: the same Playwright-like page and builtins as the real
// browser's, acting on the simulated web's pages (a document in the run's own process): locators,
// waits for what a page's own script does later, events, file fields, evaluate in the page. Each
// run is a script created through the API and run through POST /run, in-process.
import { describe, expect, it } from "vitest";
import { useScriptProbes } from "../fixtures/script-probes.js";

const { createAndRun, expectFailedRun, call } = useScriptProbes(
  { browser: "simulated" },
  { content: "return { still: 'serving' };", result: { still: "serving" } },
);
const FILE = { doc: { b64: Buffer.from("%PDF-1.7 hello").toString("base64"), mime: "application/pdf" } };

async function result(content: string, files?: typeof FILE): Promise<unknown> {
  const ran = await createAndRun(content, files ? { files } : {});
  expect(ran.body.error, JSON.stringify(ran.body)).toBeUndefined();
  expect(ran.status).toBe(200);
  return ran.body.result;
}

describe("the simulated page", () => {
  it("opens the simulated web's pages and reads them with locators", async () => {
    expect(
      await result(`
        const answer = await page.goto("https://example.com/");
        return {
          answer,
          title: await page.title(),
          heading: await page.locator("h1").textContent(),
          byRole: await page.getByRole("heading", { level: 1 }).innerText(),
          count: await page.locator("p").count(),
          url: page.url(),
        };`),
    ).toEqual({
      answer: { status: 200, url: "https://example.com/" },
      title: "Example Domain",
      heading: "Example Domain",
      byRole: "Example Domain",
      count: 1,
      url: "https://example.com/",
    });
  });

  it("runs the page's own script, and waits for what it does after an event", async () => {
    expect(
      await result(`
        await builtins.goto("https://discord.com/channels/1/22");
        await builtins.paste('form#composer div[role="textbox"]', "Hello there");
        await builtins.pressKey("Enter");
        const posted = page.locator('ol[data-list-id="chat-messages"] > li').nth(1);
        await posted.waitFor();
        return { content: await posted.locator(".content").textContent(), id: await posted.getAttribute("data-message-id") };`),
    ).toEqual({ content: "Hello there", id: expect.stringMatching(/^\d+$/) });
  });

  it("puts a run's file into a file field (name, size, type, and the SHA-256 the sandbox computed), and runs evaluate in the page", async () => {
    const value = await result(
      `
      await page.setContent('<input type="file" id="f"><p id="x">1</p>');
      await builtins.uploadFile("#f", "doc");
      const held = await page.locator("#f").evaluate((input) => {
        const [file] = input.files;
        return { name: file.name, size: file.size, type: file.type, sha256: file.sha256 };
      });
      const doubled = await page.evaluate((n) => n * 2, 21);
      const renamed = await page.locator("#f").evaluate((input, name) => {
        const moved = new DataTransfer();
        moved.items.add(new File([input.files[0]], name, { type: input.files[0].type }));
        input.files = moved.files;
        return input.files[0].name + " " + input.files[0].size;
      }, "renamed.pdf");
      const hashed = await page.evaluate(async () => {
        const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode("abc"));
        return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
      });
      return { held, doubled, renamed, hashed, url: page.url() };`,
      FILE,
    );
    expect(value).toEqual({
      held: { name: "doc", size: 14, type: "application/pdf", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      doubled: 42,
      renamed: "renamed.pdf 14",
      hashed: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
      url: "https://sandbox.invalid/",
    });
  });

  it("fails an action whose element never comes, saying what it waited for", async () => {
    const ran = await createAndRun(`page.setDefaultTimeout(200); await page.goto("https://example.com/"); await page.locator("#missing").click();`);
    await expectFailedRun(ran, /^TimeoutError: locator\.click: Timeout 200ms exceeded\. \(waiting for locator\('#missing'\): no element matches yet\)/);
  });

  it("refuses a locator that matches several elements for an action, as Playwright's strictness does", async () => {
    const ran = await createAndRun(`await page.setContent("<p>a</p><p>b</p>"); await page.locator("p").textContent();`);
    await expectFailedRun(ran, "Error: locator.textContent: strict mode violation: locator('p') resolved to 2 elements");
  });

  it("records each call as a trace step, its locator written as Playwright writes it", async () => {
    const ran = await createAndRun(`
      await builtins.goto("https://example.com/");
      await page.setContent("<ul><li>it's a</li><li>b</li></ul><button>Go</button>");
      return {
        t: await page.locator("li", { hasText: "it's" }).filter({ hasNotText: /z/i }).first().textContent(),
        n: await page.locator("li").nth(1).textContent(),
        b: await page.getByRole("button", { name: "Go", exact: true }).last().innerText(),
      };`);
    expect(ran.body.result).toEqual({ t: "it's a", n: "b", b: "Go" });
    const trace = await call("GET", `https://reduck.ai/api/runs/${ran.body.runId}/trace`);
    expect(trace.body.steps.map((s: { action: string; ok: boolean }) => [s.action, s.ok])).toEqual([
      ["goto https://example.com/", true],
      ['page.setContent("<ul><li>it\'s a</li><li>b</li></ul><button>Go</button>")', true],
      ["locator('li', { hasText: 'it\\'s' }).filter({ hasNotText: /z/i }).first().textContent()", true],
      ["locator('li').nth(1).textContent()", true],
      ["getByRole('button', { name: 'Go', exact: true }).last().innerText()", true],
      ["return", true],
    ]);
  });
});
