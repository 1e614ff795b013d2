// A typescript body runs with its types stripped; one that is JavaScript already runs exactly as
// written (its errors keep their lines); a javascript body is never touched.
import { describe, expect, it } from "vitest";
import { runnableBody } from "./typescript-body.js";

describe("runnableBody", () => {
  it("strips the types of a TypeScript body, keeping its top-level return and await", () => {
    const body = "interface Row { price: number }\nconst rows: Row[] = await Promise.resolve([{ price: 2 }]);\nreturn { total: rows[0]!.price as number };";
    const stripped = runnableBody(body, "typescript");
    expect(stripped).not.toMatch(/interface|: Row|as number|!\./);
    expect(stripped).toContain("await Promise.resolve([{ price: 2 }])");
    expect(stripped).toMatch(/return \{ total: rows\[0\]\.price \};/);
  });

  it("keeps a body that is JavaScript already exactly as written", () => {
    const body = "// line 1\n\n  return { a: 1 }   ;";
    expect(runnableBody(body, "typescript")).toBe(body);
  });

  it("leaves a body that is neither as it is, for the run to fail at compile", () => {
    expect(runnableBody("const x: = 1;", "typescript")).toBe("const x: = 1;");
  });

  it("never touches a javascript body", () => {
    expect(runnableBody("const n: number = 1; return n;", "javascript")).toBe("const n: number = 1; return n;");
  });
});
