// What must be undone however the benchmark ends (success, failure, Ctrl-C): servers, browsers, the
// temp dir. Tasks run in reverse order of registration, so servers stop before their data dir goes.
const tasks = [];
let running;

export function onCleanup(task) {
  tasks.push(task);
}

/** A signal can arrive while the normal clean-up runs: both callers then wait for the same one. */
export function cleanUp() {
  running ??= runTasks().finally(() => (running = undefined));
  return running;
}

async function runTasks() {
  while (tasks.length > 0) {
    try {
      await tasks.pop()();
    } catch (error) {
      console.error(`Clean-up: ${error.message}`);
    }
  }
}
