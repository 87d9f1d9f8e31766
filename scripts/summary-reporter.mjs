// A Vitest reporter that ends the run with one plain "N passed, N failed" line per project
// (server:sqlite and server:postgres apart) and one in total, so CI logs show the counts.
const SLOWEST_FILES = 15;

export default class SummaryReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    const perProject = new Map();
    const files = [];
    const total = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      const name = module.project.name || 'root';
      const counts = perProject.get(name) ?? { passed: 0, failed: 0, skipped: 0, ms: 0 };
      // Files of a project run side by side: the sum says where the workers' time went, not the wall time.
      counts.ms += module.diagnostic().duration;
      files.push({ name: `${name} ${module.relativeModuleId}`, ms: module.diagnostic().duration });
      let seen = 0;
      for (const test of module.children.allTests()) {
        seen++;
        const state = test.result().state;
        const key = state === 'passed' ? 'passed' : state === 'failed' ? 'failed' : 'skipped';
        counts[key]++;
        total[key]++;
      }
      // A file that failed to load has no tests but is a failure all the same.
      if (module.state() === 'failed' && (seen === 0 || module.errors().length > 0)) {
        counts.failed++;
        total.failed++;
      }
      perProject.set(name, counts);
    }
    if (unhandledErrors.length > 0) total.failed += unhandledErrors.length;
    const lines = [''];
    const times = [];
    for (const [name, c] of [...perProject].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`${name}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
      times.push(`${name} ${Math.round(c.ms / 1000)} s`);
    }
    lines.push(`total: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
    lines.push(`time in test files, per suite (workers side by side): ${times.join(', ')}`);
    // Where to look first when the run grows slow.
    const slowest = files.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_FILES);
    lines.push(`slowest files: ${slowest.map((file) => `${file.name} ${Math.round(file.ms / 1000)} s`).join(', ')}`);
    process.stdout.write(lines.join('\n') + '\n');
  }
}
