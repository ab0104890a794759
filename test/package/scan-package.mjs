// The package's own run of n8n's community package scanner
// (@n8n/scan-community-package), before anything is published: ESLint with the
// scanner's config, the package's own config and every eslint-disable comment
// ignored, over the sources it would lint (package.json and
// {nodes,credentials}/**/*.{js,ts,json}) and over the packed tarball's
// JavaScript and package.json; then the rest of n8n's verification: no runtime
// dependencies, no environment or file-system access, MIT, English, a README
// with usage and authentication. npm's provenance, which the scanner checks
// first, exists only once a release is published from CI.
//   node test/package/scan-package.mjs                          the repository and a fresh `npm pack` of it
//   node test/package/scan-package.mjs --source DIR --package DIR   a source tree and an unpacked tarball
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SCANNED_FILES, lintAsScanner } from './scan/scannerConfig.mjs';
import {
	checkEnglish,
	checkLoadsOnlyWhatN8nProvides,
	checkMitLicence,
	checkNoRuntimeDependencies,
	checkReadme,
	filesUnder,
} from './scan/verificationChecks.mjs';

const root = resolve(import.meta.dirname, '../..');
const { values: options } = parseArgs({
	options: { source: { type: 'string' }, package: { type: 'string' } },
});
const sourceDir = resolve(options.source ?? root);
const work = mkdtempSync(join(tmpdir(), 'appbuilder-scan-'));
const problems = [];

/** Packs the repository as npm publishes it, checks what the tarball holds, and unpacks it. */
function packAndUnpack() {
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
			cwd: root,
			encoding: 'utf8',
		}),
	)[0];
	const allowed = /^(?:dist\/|README\.md$|LICENSE$|CHANGELOG\.md$|package\.json$)/;
	for (const file of packed.files)
		if (!allowed.test(file.path))
			problems.push(`tarball holds ${file.path}, which should not ship`);
	const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	for (const required of [
		...manifest.n8n.nodes,
		...manifest.n8n.credentials,
		'dist/icons/appbuilder.svg',
		'dist/icons/appbuilder.dark.svg',
		'CHANGELOG.md',
	]) {
		if (!packed.files.some((file) => file.path === required))
			problems.push(`tarball lacks ${required}`);
	}
	execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work]);
	console.log(`Packed ${packed.filename}: ${packed.files.length} files.`);
	return join(work, 'package');
}

try {
	const sourceFiles = filesUnder(sourceDir).filter(SCANNED_FILES.source);
	const sourceReport = await lintAsScanner(sourceDir, sourceFiles);
	if (sourceReport) problems.push(`The scanner's rules fail on the sources:${sourceReport}`);

	const packageDir = options.package ? resolve(options.package) : packAndUnpack();
	const packageFiles = filesUnder(packageDir);
	const tarballFiles = packageFiles.filter(SCANNED_FILES.tarball);
	const tarballReport = await lintAsScanner(packageDir, tarballFiles);
	if (tarballReport) problems.push(`The scanner's rules fail on the packed code:${tarballReport}`);

	const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
	// n8n provides n8n-workflow to an installed package; the English check loads the nodes as n8n does.
	if (!existsSync(join(packageDir, 'node_modules')))
		symlinkSync(join(root, 'node_modules'), join(packageDir, 'node_modules'), 'dir');
	problems.push(
		...checkNoRuntimeDependencies(manifest),
		...checkLoadsOnlyWhatN8nProvides(packageDir, packageFiles),
		...checkMitLicence(packageDir, manifest),
		...checkReadme(packageDir),
		...checkEnglish(packageDir, manifest),
	);
	console.log(
		`Scanned ${sourceFiles.length} source files and ${tarballFiles.length} packed files with the scanner's rules, inline config ignored.`,
	);
} finally {
	rmSync(work, { recursive: true, force: true });
}

if (problems.length > 0) {
	console.error(problems.join('\n'));
	process.exit(1);
}
console.log("The package passes n8n's community package checks.");
