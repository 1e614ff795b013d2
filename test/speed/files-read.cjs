// Loaded with `node --require`: at exit, writes every file the process read whole through
// node:fs (readFileSync, readFile, fs/promises' readFile: how oclif and the CLI read JSON) to the
// file named by REDUCK_TEST_FILES_READ, one a line.
const fs = require("node:fs");
const promises = require("node:fs/promises");

const read = [];
const watch = (owner, name) => {
  const real = owner[name];
  owner[name] = function (file, ...rest) {
    if (typeof file === "string" || file instanceof URL) read.push(String(file));
    return real.call(this, file, ...rest);
  };
};
watch(fs, "readFileSync");
watch(fs, "readFile");
watch(promises, "readFile");
process.on("exit", () => fs.writeFileSync(process.env.REDUCK_TEST_FILES_READ, read.join("\n")));
