import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The request log is written to stdout a few kilobytes at a time (issue 42, item 14; scripts/ops.mjs):
 * a quiet server's line still shows within a second, and every line is written when the process
 * exits, even by process.exit right after logging.
 */
const OPS = resolve(import.meta.dirname, '../../scripts/ops.mjs');

/** Runs `body` in a process of its own with `logger` from the operations layer; gathers its stdout. */
function loggingProcess(body: string) {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', `const { operations } = await import(${JSON.stringify(OPS)}); const { logger } = operations(); ${body}`],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  return { output: () => output, exited, child };
}

const linesOf = (output: string, evento: string) => output.split('\n').filter((line) => line.includes(`"evento":"${evento}"`));

describe('the request log on stdout', () => {
  it('writes every line when the process exits right after logging them', async () => {
    const run = loggingProcess(`for (let n = 0; n < 500; n++) logger.info({ evento: 'linha', n }); process.exit(0);`);
    expect(await run.exited).toBe(0);
    const lines = linesOf(run.output(), 'linha');
    expect(lines).toHaveLength(500);
    expect(JSON.parse(lines.at(-1)!).n).toBe(499);
  });

  it("shows a quiet server's single line within a second or so, while the process goes on", async () => {
    const run = loggingProcess(`logger.info({ evento: 'sozinha' }); setTimeout(() => {}, 10_000);`);
    try {
      await expect.poll(() => linesOf(run.output(), 'sozinha').length, { timeout: 2_500, interval: 50 }).toBe(1);
      expect(run.child.exitCode).toBeNull();
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  });
});
