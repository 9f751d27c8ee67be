// Command-line options of the benchmarks: `--name value`.

/** The value after `name` on the command line, or `fallback` when the option is absent. */
function argument(name, fallback) {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

module.exports = { argument };
