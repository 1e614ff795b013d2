// Loaded with `node --require`: writes "made" to the file named by REDUCK_TEST_STDERR_FILE when
// something first reads process.stderr (which makes its stream), and "never" at exit otherwise.
const { writeFileSync } = require("node:fs");

const own = Object.getOwnPropertyDescriptor(process, "stderr");
let made = false;
Object.defineProperty(process, "stderr", {
  configurable: true,
  enumerable: own.enumerable,
  get() {
    if (!made) writeFileSync(process.env.REDUCK_TEST_STDERR_FILE, "made");
    made = true;
    return own.get.call(process);
  },
});
process.on("exit", () => {
  if (!made) writeFileSync(process.env.REDUCK_TEST_STDERR_FILE, "never");
});
