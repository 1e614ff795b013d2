/**
 * Tables on a real terminal (util-linux `script`), 80 and 120 columns wide, with wide characters
 * (CJK, emoji): addresses and run ids are always whole, so they can be copied into the next
 * command; descriptions are what gets cut, on whole characters; `--wide` shows everything.
 */
import path from "node:path";
import stringWidth from "string-width";
import { describe, expect, test } from "vitest";
import { BUILD_ROOT } from "../support/cli.js";
import { openTerminal, screenLines } from "./terminal.js";
import { useCliSandbox } from "../support/sandbox.js";

const WIDE = [
  {
    host: "shop.example.jp",
    slug: "order_status",
    name: "注文状況を確認する 📦",
    description: "注文番号から配送状況を調べて返します。長い説明なので、狭い端末では切り詰められます。🚚🚚🚚",
  },
  {
    host: "party.example.com",
    slug: "send_invitations",
    name: "Invitations 🎉",
    description: "Sends an invitation to every guest 👩‍👩‍👧 on the list, with a flag 🇫🇷 for each country, and says who has already answered.",
  },
];

const sandbox = useCliSandbox({
  store: { browser: "simulated" },
  seed: (store) => {
    for (const s of WIDE) store.addScript({ handle: "@demo", ...s, content: "return {};", visibility: "private" });
  },
  home: "reduck-tables-",
});

async function screen(args: string[], columns: number): Promise<string[]> {
  const { code, output } = await openTerminal(args, { env: sandbox.env, columns, rows: 60 }).exited;
  expect(code, `${args.join(" ")}\n${output}`).toBe(0);
  return screenLines(output).filter(Boolean);
}

describe.each([80, 120])("at %i columns", (columns) => {
  test("scripts list: every address whole at the start of its row, nothing wider than the terminal, descriptions cut with …", async () => {
    const lines = await screen(["scripts", "list", "--page-size", "100"], columns);
    const rows = lines.filter((l) => /^(@demo|reduck|acme|partners)\//.test(l));
    const visible = [...sandbox.store.scripts.values()].filter((s) => !s.archivedAt);
    expect(rows.length).toBeGreaterThanOrEqual(WIDE.length);
    for (const row of rows) {
      expect(stringWidth(row), row).toBeLessThanOrEqual(columns);
      const address = row.split(/\s{2,}/)[0]!;
      expect(address, row).not.toContain("…");
      const [handle, host, slug] = address.split("/");
      expect(sandbox.store.findScriptByAddress(handle!, host!, slug!), `${address} is a whole address`).toMatchObject({ host, slug });
    }
    for (const s of WIDE) expect(rows.some((r) => r.startsWith(`@demo/${s.host}/${s.slug} `))).toBe(true);
    expect(rows.some((r) => r.endsWith("…"))).toBe(true);
    expect(visible.length).toBeGreaterThan(0);
  });

  test("runs list: every run id and script address whole", async () => {
    const lines = await screen(["runs", "list", "--page-size", "100"], columns);
    const ids = [...sandbox.store.runs.values()].filter((r) => r.userId === sandbox.store.demo.userId).map((r) => r.id);
    for (const id of ids)
      expect(
        lines.some((l) => l.startsWith(`${id}  `)),
        id,
      ).toBe(true);
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(columns);
    expect(lines.some((l) => l.includes("@demo/example.com/get_title"))).toBe(true);
  });

  test("--wide: every column and every description in full, however wide that is", async () => {
    const lines = await screen(["scripts", "list", "--page-size", "100", "--wide"], columns);
    expect(lines[0]).toMatch(/^ADDRESS\s+NAME\s+VISIBILITY\s+SIDE EFFECTS\s+DESCRIPTION$/);
    // The terminal wraps long lines; joined again, each description is there whole.
    const text = lines.join("");
    for (const s of WIDE) expect(text).toContain(s.description);
  });
});

test("string-width is bundled into the CLI, pinned, and no runtime dependency of the library", async () => {
  const { readFile, readdir } = await import("node:fs/promises");
  const root = new URL("../../", import.meta.url);
  const pkg = JSON.parse(await readFile(new URL("package.json", root), "utf8"));
  expect(pkg.dependencies["string-width"]).toBeUndefined();
  expect(pkg.devDependencies["string-width"]).toMatch(/^\d+\.\d+\.\d+$/);
  const dist = path.join(BUILD_ROOT, "dist", "cli");
  const built = (await readdir(dist, { recursive: true, encoding: "utf8" })).filter((f) => /\.c?js$/.test(f));
  expect(built).toContain("index.cjs");
  for (const file of built) {
    expect(await readFile(path.join(dist, file), "latin1"), file).not.toMatch(/from\s*["']string-width["']|require\(["']string-width["']\)/);
  }
});
