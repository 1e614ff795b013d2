import { describe, expect, test } from "vitest";
import { relativePathProblem, isPlainRelativePath } from "../../src/index.js";

describe("the relativePath rule", () => {
  test.each([
    "invoice.pdf",
    "2026/invoice.pdf",
    "a/b/c/report final.docx",
    "..hidden-but-not-parent.txt",
    "x..y.png",
    "pièce-jointe.pdf",
    "請求書/2026年.pdf",
    "console.txt",
    "com10.txt",
    "nul-report.pdf",
    ".env",
    "a.b/c",
  ])("accepts %j", (name) => {
    expect(relativePathProblem(name)).toBeUndefined();
    expect(isPlainRelativePath(name)).toBe(true);
  });

  test.each([
    ["/etc/passwd", "absolute path"],
    ["C:\\Users\\me\\cv.pdf", "backslash"],
    ["C:/Users/me/cv.pdf", "drive letter"],
    ["c:cv.pdf", "drive letter"],
    ["\\\\server\\share\\cv.pdf", "backslash"],
    ["//server/share/cv.pdf", "absolute path"],
    ["../secrets.txt", "leaves the folder"],
    ["2026/../../secrets.txt", "leaves the folder"],
    ["2026/..", "leaves the folder"],
    ["..\\secrets.txt", "backslash"],
    ["invoice.pdf\0.png", "NUL"],
    ["", "empty"],
    ["   ", "empty"],
    ["~/Desktop/cv.pdf", "~"],
    ["a//b.pdf", "empty path segment"],
    ["./a.pdf", ". segment"],
    // Names that break the file: URL the browser reads them through, or name another file on Windows.
    ["%2e%2e/secret.txt", "%"],
    ["%2E%2E%2Fsecret.txt", "%"],
    ["100%.pdf", "%"],
    ["a?b.pdf", "?"],
    ["a#b.pdf", "#"],
    ["a/b:stream", ":"],
    ["invoice.pdf:Zone.Identifier", ":"],
    ["a\tb.pdf", "control character"],
    ["a\nb.pdf", "control character"],
    ["a\u001bb.pdf", "control character"],
    ["a\u007fb.pdf", "control character"],
    ["a\u0085b.pdf", "control character"],
    ["con", "device name"],
    ["CON", "device name"],
    ["con.txt", "device name"],
    ["Con.tar.gz", "device name"],
    ["prn.pdf", "device name"],
    ["aux", "device name"],
    ["NUL.png", "device name"],
    ["com1", "device name"],
    ["COM9.txt", "device name"],
    ["lpt1.pdf", "device name"],
    ["Lpt9", "device name"],
    ["con .txt", "device name"],
    ["2026/aux.pdf", "device name"],
    ["invoice.", "ends in a dot or a space"],
    ["invoice.pdf ", "ends in a dot or a space"],
    ["2026./invoice.pdf", "ends in a dot or a space"],
    ["2026 /invoice.pdf", "ends in a dot or a space"],
    ["...", "ends in a dot or a space"],
  ])("refuses %j (%s)", (name, why) => {
    const problem = relativePathProblem(name);
    expect(problem).toMatch(/^must be a plain name inside the reduck folder/);
    expect(problem).toContain(why);
    expect(isPlainRelativePath(name)).toBe(false);
  });

  test("refuses what is not a string", () => {
    expect(relativePathProblem(undefined)).toMatch(/must be a plain name inside the reduck folder/);
    expect(relativePathProblem(42)).toMatch(/must be a plain name inside the reduck folder/);
  });
});
