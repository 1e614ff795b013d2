/**
 * Every command, by id. oclif's "explicit" discovery imports this one module instead of
 * scanning a folder, which keeps start-up fast (see CONVENTIONS.md).
 */
import Run from "./commands/run.js";
import Whoami from "./commands/whoami.js";
import Login from "./commands/login.js";
import Logout from "./commands/logout.js";

export const COMMANDS = {
  run: Run,
  whoami: Whoami,
  login: Login,
  logout: Logout,
};
