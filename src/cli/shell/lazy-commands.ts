/**
 * The command table oclif reads (its "explicit" discovery), with each command's code loaded only
 * when it runs. oclif takes a command's flags, arguments and help from oclif.manifest.json, and
 * touches the class it finds in this table only to run it (`Command.run(argv, config)`), so each
 * entry here is a stand-in whose `run` loads the real class and runs that. The manifest itself is
 * written from the real classes: loadAllCommands puts them in the table first (scripts/manifest.mjs).
 */
import type { Command, Config } from "@oclif/core";

/** How one command's module is loaded (src/cli/commands.ts). */
export type CommandLoader = () => Promise<{ default: unknown }>;

type RealCommand = { id?: string; plugin?: unknown; run(argv?: string[], config?: Config): Promise<unknown> };

/**
 * The table for oclif: a stand-in for each command of `loaders`, each made when oclif first asks
 * for it (one command a start: making all of them was a millisecond of every start). A value put
 * in the table (loadAllCommands) takes the stand-in's place.
 */
export function lazyCommands<T extends Record<string, CommandLoader>>(loaders: T): Record<keyof T, Command.Class> {
  const table: Record<string, Command.Class> = {};
  const settle = (id: string, value: Command.Class) => {
    Object.defineProperty(table, id, { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  for (const [id, load] of Object.entries(loaders)) {
    Object.defineProperty(table, id, {
      get: () => settle(id, standIn(load)),
      set: (value: Command.Class) => settle(id, value),
      enumerable: true,
      configurable: true,
    });
  }
  return table as Record<keyof T, Command.Class>;
}

function standIn(load: CommandLoader): Command.Class {
  return class LazyCommand {
    // oclif sets these on the class it found (Plugin.findCommand); the real class needs them to run.
    static id: string;
    static plugin: unknown;

    static async run(argv?: string[], config?: Config): Promise<unknown> {
      const real = (await load()).default as RealCommand;
      real.id = LazyCommand.id;
      real.plugin = LazyCommand.plugin;
      return real.run(argv, config);
    }
  } as unknown as Command.Class;
}

/**
 * Puts every real command class in `table` in place of its stand-in: for `oclif manifest`, which
 * reads their flags, arguments and help from the classes themselves.
 */
export async function loadAllCommands(table: Record<string, unknown>, loaders: Record<string, CommandLoader>): Promise<void> {
  for (const [id, load] of Object.entries(loaders)) table[id] = (await load()).default;
}
