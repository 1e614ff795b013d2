/**
 * The module made from contracts that attack every slot (./hostile-contract.ts) compiles in a
 * user's strict project against the package's built types: hostile text inside an interface
 * (a note, a property name, a description) cannot break their build.
 */
import path from "node:path";
import { expect, test } from "vitest";
import { scriptsModule } from "../../src/typegen/module.js";
import { temporaryFolder } from "../support/files.js";
import { typecheck } from "../support/typecheck.js";
import { hostileContracts } from "./hostile-contract.js";

test("a module made from hostile contracts type-checks with no problem", () => {
  const { contracts, command } = hostileContracts(path.join(temporaryFolder("reduck-hostile-compile-"), "payload-ran"));
  const problems = typecheck({ "reduck-scripts.ts": scriptsModule(contracts, command), "main.ts": 'import "./reduck-scripts.js";\n' });
  expect([...problems.values()].flat().map((p) => `${p.file}:${p.line}: ${p.first}`)).toEqual([]);
});
