import { describe, expect, it } from "vitest";
import stringWidth from "string-width";
import { renderTable, stdoutLayout, wideLayout } from "../../../src/cli/shell/output.js";
import { formatBytes } from "../../../src/core/bytes.js";

const rows = [
  { id: "a", text: "short" },
  { id: "b", text: "a description long enough that it cannot fit in a narrow terminal at all, however hard it tries" },
];
const columns = [
  { header: "id", get: (r: (typeof rows)[number]) => r.id },
  { header: "text", get: (r: (typeof rows)[number]) => r.text },
];

describe("renderTable", () => {
  it("on a terminal, fits the width by cutting the widest column with …", () => {
    const out = renderTable(rows, columns, { kind: "terminal", width: 40 }).split("\n");
    expect(out[0]).toBe("ID  TEXT");
    for (const line of out) expect([...line].length).toBeLessThanOrEqual(40);
    expect(out[2]).toMatch(/^b   a description .*…$/);
    expect(out[1]).toBe("a   short");
  });

  it("piped, tab-separated with no header, padding or truncation", () => {
    expect(renderTable(rows, columns, { kind: "plain" })).toBe(`a\tshort\nb\t${rows[1]!.text}`);
  });

  it("stdout decides: a terminal's width (80 when unknown), else plain; documents stay aligned when piped", () => {
    expect(stdoutLayout({}, { isTTY: true, columns: 120 })).toEqual({ kind: "terminal", width: 120 });
    expect(stdoutLayout({}, { isTTY: true })).toEqual({ kind: "terminal", width: 80 });
    expect(stdoutLayout({}, { isTTY: false })).toEqual({ kind: "plain" });
    expect(stdoutLayout({ piped: "aligned" }, {})).toEqual({ kind: "terminal", width: Infinity });
  });
});

describe("formatBytes (the one size rule: binary units, as the limits count)", () => {
  it("counts in binary units, labelled KiB, MiB, GiB", () => {
    expect(formatBytes(40 * 1024 * 1024)).toBe("40 MiB");
    expect(formatBytes(40_000_000)).toBe("38.1 MiB");
    expect(formatBytes(1_536)).toBe("1.5 KiB");
    expect(formatBytes(3 * 1024 ** 3)).toBe("3 GiB");
    expect(formatBytes(999)).toBe("999 bytes");
  });
});

describe("renderTable keeps what people copy whole, at 80 and 120 columns, wide characters included", () => {
  type Script = { address: string; name: string; visibility: string; effects: string; description: string };
  const scripts: Script[] = [
    {
      address: "reduck/admin.atlassian.com/download_invoice",
      name: "Download an Atlassian invoice PDF",
      visibility: "public",
      effects: "none",
      description: "Download one Atlassian billing invoice, given the downloadUrl or the id plus transaction_account that list_invoices returns.",
    },
    {
      address: "@demo/例え.jp/送信",
      name: "メールを送信する 📧",
      visibility: "private (archived)",
      effects: "write",
      description: "日本語の説明文がとても長いので、端末の幅に収まらないときは切り詰められます。絵文字も 👩‍👩‍👧 🎉 あります。",
    },
    {
      address: "@demo/x.com/post_✨",
      name: "Post 🎉🎉🎉",
      visibility: "public",
      effects: "write",
      description: "A family 👩‍👩‍👧 and flags 🇫🇷🇯🇵 must never be split in half when the description is cut short at the edge of the terminal.",
    },
  ];
  const columns = [
    { header: "address", get: (s: Script) => s.address, keep: true },
    { header: "name", get: (s: Script) => s.name, min: 12 },
    { header: "visibility", get: (s: Script) => s.visibility, drop: 2 },
    { header: "side effects", get: (s: Script) => s.effects, drop: 1 },
    { header: "description", get: (s: Script) => s.description, min: 20 },
  ];
  const segmenter = new Intl.Segmenter();
  const graphemes = (text: string) => [...segmenter.segment(text)].map((s) => s.segment);

  for (const width of [80, 120]) {
    it(`at ${width} columns: every line fits (as a terminal counts), addresses whole, descriptions cut on whole characters`, () => {
      const lines = renderTable(scripts, columns, { kind: "terminal", width }).split("\n");
      for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(width);
      for (const [i, s] of scripts.entries()) {
        expect(lines[i + 1]!.startsWith(`${s.address} `), lines[i + 1]).toBe(true);
        // Whatever is shown of the description is its start, cut between characters, never inside one.
        const shown = lines[i + 1]!.split(/ {2,}/).at(-1)!;
        const kept = shown.endsWith("…") ? shown.slice(0, -1) : shown;
        expect(s.description.startsWith(kept), shown).toBe(true);
        expect(graphemes(s.description).slice(0, graphemes(kept).length).join("")).toBe(kept);
      }
      expect(lines.slice(1).some((l) => l.endsWith("…"))).toBe(true);
      // The columns line up on screen: each header starts at the same terminal column as its cells.
      const nameAt = stringWidth(lines[0]!.slice(0, lines[0]!.indexOf("NAME")));
      for (const [i, s] of scripts.entries()) {
        const line = lines[i + 1]!;
        const nameStart = line.indexOf(s.name.slice(0, 3));
        expect(stringWidth(line.slice(0, nameStart)), line).toBe(nameAt);
      }
    });
  }

  it("at 80 columns, side effects then visibility are left out before the description shrinks to nothing; at 120 they stay", () => {
    expect(renderTable(scripts, columns, { kind: "terminal", width: 80 }).split("\n")[0]).toMatch(/^ADDRESS\s+NAME\s+DESCRIPTION$/);
    expect(renderTable(scripts, columns, { kind: "terminal", width: 120 }).split("\n")[0]).toMatch(
      /^ADDRESS\s+NAME\s+VISIBILITY\s+SIDE EFFECTS\s+DESCRIPTION$/,
    );
  });

  it("run ids and addresses stay whole even when they alone are wider than the terminal (it wraps, nothing is cut)", () => {
    const runs = [{ id: "00000000-0000-4000-8005-000000000001", script: "reduck/admin.atlassian.com/download_invoice", status: "cancelled" }];
    const out = renderTable(
      runs,
      [
        { header: "run id", get: (r: (typeof runs)[number]) => r.id, keep: true },
        { header: "status", get: (r: (typeof runs)[number]) => r.status },
        { header: "script", get: (r: (typeof runs)[number]) => r.script, keep: true },
      ],
      { kind: "terminal", width: 60 },
    );
    expect(out).toContain(runs[0]!.id);
    expect(out).toContain(runs[0]!.script);
  });

  it("--wide: everything, whole, on any terminal; piped output is unchanged", () => {
    const wide = renderTable(scripts, columns, wideLayout({ kind: "terminal", width: 80 }));
    expect(wide.split("\n")[0]).toMatch(/SIDE EFFECTS/);
    for (const s of scripts) expect(wide).toContain(s.description);
    expect(wide).not.toContain("…");
    expect(wideLayout({ kind: "plain" })).toEqual({ kind: "plain" });
  });
});
