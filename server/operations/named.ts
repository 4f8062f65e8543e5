/**
 * A plugin of ours, named for Fastify by its own name. Fastify names a plugin without a display name by searching
 * every loaded module for one that exports it, at each registration, twice; that search is most of what registering
 * costs, and under the test runner (whose module cache is a proxy) it was a fifth of a server test file's time. The name found
 * is the function's own name either way, since our modules export their plugins by name.
 */
const DISPLAY_NAME = Symbol.for('fastify.display-name');

export function named<Plugin extends (...args: never[]) => unknown>(plugin: Plugin): Plugin {
  const labelled = plugin as Plugin & { [DISPLAY_NAME]?: string };
  labelled[DISPLAY_NAME] ??= plugin.name;
  return plugin;
}
