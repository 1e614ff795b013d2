import { describe, expect, it } from "vitest";
import { renderTable, stdoutLayout } from "../../../src/cli/output.js";
import { formatSize } from "../../../src/cli/progress.js";

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

describe("formatSize", () => {
  it("counts in decimal units", () => {
    expect(formatSize(40_000_000)).toBe("40 MB");
    expect(formatSize(38_100_000)).toBe("38.1 MB");
    expect(formatSize(1_500)).toBe("1.5 kB");
    expect(formatSize(999)).toBe("999 bytes");
  });
});
