/** The commands that keep scripts as files (pull, status, diff, push, test), for the command table. */
export { default as Diff } from "./diff.js";
export { default as Pull } from "./pull.js";
export { default as Push } from "./push.js";
export { default as Status } from "./status.js";
export { default as Test } from "./test.js";
