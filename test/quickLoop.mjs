// npm run test:quick: two lanes side by side, the lint then the bench's own
// tests in one, the typecheck then the package's suites in the other. The
// lint is one process on one core at a time for about a minute and a half,
// and the suites leave cores idle while they wait on paced answers: side by
// side the lanes keep both cores busy. The first lane's output is held and
// printed whole when the loop ends, so the lanes do not interleave; the loop
// fails when either lane does.
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
const lint = (async () =>
	(await run('npm', ['run', 'lint'], lintOutput)) &&
	(await run('npm', ['test', '--workspace', 'bench'], lintOutput)))();
const suites = (await run('npm', ['run', 'typecheck'])) && (await run('npx', ['jest']));
const linted = await lint;
process.stdout.write(Buffer.concat(lintOutput));
if (!linted) console.error("test:quick: npm run lint or the bench's tests failed (output above)");
if (!suites) console.error('test:quick: the typecheck or a test failed (see above)');
process.exit(linted && suites ? 0 : 1);
