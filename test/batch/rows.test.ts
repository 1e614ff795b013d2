/** readRows: CSV through csv-parse (never split on commas) and JSONL, streamed from real files. */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, expect, test } from "vitest";
import { readRows, RowsError } from "../../src/index.js";
import { temporaryFolder } from "../support/files.js";

let dir: string;
beforeAll(() => {
  dir = temporaryFolder("reduck-rows-");
});

async function rowsOf(name: string, text: string | Buffer) {
  const file = path.join(dir, name);
  await writeFile(file, text);
  const out = [];
  for await (const row of readRows(file)) out.push(row);
  return out;
}

test("CSV: a BOM, CRLF, quoted commas and quotes, an embedded newline; an empty cell is not given", async () => {
  const rows = await rowsOf("a.csv", '\uFEFFname , note,file:photo\r\n"Smith, Ada","say ""hi""\r\nthen go",a.png\r\nLinus,,\r\n\r\n');
  expect(rows).toEqual([{ name: "Smith, Ada", note: 'say "hi"\r\nthen go', "file:photo": "a.png" }, { name: "Linus" }]);
});

test("CSV: a row with the wrong number of cells, a duplicated or empty column name, an unclosed quote are RowsErrors naming the file", async () => {
  await expect(rowsOf("b.csv", "a,b\n1,2,3\n")).rejects.toThrow(RowsError);
  await expect(rowsOf("c.csv", "a,a\n1,2\n")).rejects.toThrow(/c\.csv: the header names a twice/);
  await expect(rowsOf("d.csv", "a,\n1,2\n")).rejects.toThrow(/d\.csv: the header has an empty column name/);
  await expect(rowsOf("e.csv", 'a\n"open\n')).rejects.toThrow(/e\.csv/);
});

test("JSONL: one object per line, typed values kept; a bad line becomes a row that says why, blank lines are skipped", async () => {
  const rows = await rowsOf("r.jsonl", '{"name":"a","n":1,"tags":["x"]}\r\n\nnot json\n[1]\n{"name":"b"}');
  expect(rows[0]).toEqual({ name: "a", n: 1, tags: ["x"] });
  expect(Object.values(rows[1]!)[0]).toMatch(/^line 3 is not JSON/);
  expect(Object.values(rows[2]!)[0]).toBe('line 4 must be a JSON object such as {"name": "value"}');
  expect(rows[3]).toEqual({ name: "b" });
});

test("a missing file or an unknown extension is a RowsError that says what to do", async () => {
  await expect(rowsOf("x.txt", "a")).rejects.toThrow(/name it \.csv .* or \.jsonl/);
  const missing = readRows(path.join(dir, "nope.csv"))[Symbol.asyncIterator]();
  await expect(missing.next()).rejects.toThrow(/nope\.csv does not exist/);
});
