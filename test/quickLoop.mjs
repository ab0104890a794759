// npm run test:quick: the lint in one lane, and the typecheck, the
// package's suites and the bench's own tests in the other, side by side.
// The lint is one process working on one core at a time for about two
// minutes; one after the other, the loop took about six minutes on a 2-core
// machine, side by side the two lanes share both cores. The lint's output is
// held and printed whole when it ends, so the lanes do not interleave; the
// loop fails when either lane does.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** Runs a command in the repository; `held` collects its output instead of printing it. */
function run(command, args, held) {
	return new Promise((done) => {
		const child = spawn(command, args, {
			cwd: root,
			stdio: held === undefined ? 'inherit' : ['ignore', 'pipe', 'pipe'],
		});
		child.stdout?.on('data', (chunk) => held.push(chunk));
		child.stderr?.on('data', (chunk) => held.push(chunk));
		child.on('close', (status) => done(status === 0));
	});
}

const lintOutput = [];
const lint = run('npm', ['run', 'lint'], lintOutput);
const suites =
	(await run('npm', ['run', 'typecheck'])) &&
	(await run('npx', ['jest'])) &&
	(await run('npm', ['test', '--workspace', 'bench']));
const linted = await lint;
process.stdout.write(Buffer.concat(lintOutput));
if (!linted) console.error('test:quick: npm run lint failed (its output is above)');
if (!suites) console.error('test:quick: the typecheck or a test failed (see above)');
process.exit(linted && suites ? 0 : 1);
