import { describe, expect, test } from "vitest";
import { relativePathProblem, isPlainRelativePath } from "../../src/index.js";

describe("the relativePath rule", () => {
  test.each(["invoice.pdf", "2026/invoice.pdf", "a/b/c/report final.docx", "..hidden-but-not-parent.txt", "x..y.png"])(
    "accepts %j",
    (name) => {
      expect(relativePathProblem(name)).toBeUndefined();
      expect(isPlainRelativePath(name)).toBe(true);
    },
  );

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
