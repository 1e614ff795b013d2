// Loaded with `node --import`: at exit, writes the Node built-in modules the process loaded
// (process.moduleLoadList) to the file named by REDUCK_TEST_MODULES_FILE.
import { writeFileSync } from "node:fs";

process.on("exit", () => writeFileSync(process.env.REDUCK_TEST_MODULES_FILE, process.moduleLoadList.join("\n")));
