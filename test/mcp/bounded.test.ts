/** What the agent tool lets through to the model of what the service sent: bounded, and saying so. */
import { describe, expect, test } from "vitest";
import { boundJson, cutText, oneLine } from "../../src/mcp/common/bounded.js";

describe("cutText and oneLine", () => {
  test("a long text is cut and says how much was left out", () => {
    expect(cutText("abcdef", 6)).toBe("abcdef");
    expect(cutText("abcdefgh", 3)).toBe("abc… [5 more characters]");
  });

  test("line breaks, control characters and line separators become single spaces", () => {
    expect(oneLine("Error: boom\n  at line 3:\tthrow\u0000x\u2028y\u001b[2J")).toBe("Error: boom at line 3: throw x y [2J");
    expect(oneLine("x".repeat(700), 600)).toBe(`${"x".repeat(600)}… [100 more characters]`);
  });
});

describe("boundJson", () => {
  test("a value that fits comes back equal, uncut", () => {
    const value = { a: [1, 2, { b: "c" }], d: null, e: true };
    expect(boundJson(value, 1_000)).toEqual({ value, cut: false });
  });

  test("long strings and lists are cut until the JSON fits, each cut marked", () => {
    const { value, cut } = boundJson({ text: "x".repeat(100_000), items: Array.from({ length: 10_000 }, (_, i) => i) }, 2_000);
    expect(cut).toBe(true);
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(2_000);
    const { text, items } = value as { text: string; items: unknown[] };
    expect(text).toMatch(/^x+… \[\d+ more characters\]$/);
    expect(items.at(-1)).toMatch(/^\[… \d+ more items\]$/);
  });

  test("an object with very many keys is cut, saying how many keys were left out", () => {
    const many = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`key${i}`, i]));
    const { value } = boundJson(many, 1_000);
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(1_000);
    expect((value as Record<string, string>)["…"]).toMatch(/^\[\d+ more keys\]$/);
  });

  test("nesting deeper than 20 levels stops with a note, however deep the value (never serialised whole)", () => {
    const deep = JSON.parse(`${'{"d":'.repeat(100_000)}1${"}".repeat(100_000)}`);
    const { value, cut } = boundJson(deep, 10_000);
    expect(cut).toBe(true);
    expect(JSON.stringify(value)).toContain('"[… nested deeper than 20 levels]"');
  });

  test("a budget too small for any structure gives the beginning of the JSON as text", () => {
    const wide = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, { a: i, b: i, c: i }]));
    const { value, cut } = boundJson(wide, 50);
    expect(cut).toBe(true);
    expect(typeof value).toBe("string");
    expect((value as string).startsWith('{"k0":')).toBe(true);
  });
});
