/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- n8n Cloud's limits are for nodes; this runs on Node itself (timers, process, built-in modules, child processes) */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * test/package/scan-package.mjs, which `npm run lint` runs on the repository
 * and its tarball, on probe packages: each breaks one thing n8n's scanner or
 * n8n's verification checks, and the scan must fail naming it. An
 * eslint-disable comment must not hide a scanner rule, as in n8n's scanner.
 */
const root = resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
let work: string;

beforeAll(() => {
	work = mkdtempSync(join(tmpdir(), 'appbuilder-scan-probe-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

// A node and a credential as tsc compiles them: the description is set in the constructor.
const NODE_JS = `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Probe = void 0;
const n8n_workflow_1 = require("n8n-workflow");
class Probe {
    constructor() {
        this.description = {
            displayName: 'Probe',
            name: 'probe',
            icon: 'file:probe.svg',
            group: ['transform'],
            version: 1,
            description: 'Reads the latest inquiries of a form and sends them on to the next node',
            defaults: { name: 'Probe' },
            inputs: [n8n_workflow_1.NodeConnectionTypes.Main],
            outputs: [n8n_workflow_1.NodeConnectionTypes.Main],
            usableAsTool: true,
            properties: [{ displayName: 'Form', name: 'form', type: 'string', default: '', description: 'The ID of the form to read the inquiries of' }],
        };
    }
}
exports.Probe = Probe;
`;
const CREDENTIAL_JS = `"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ProbeApi = void 0;
class ProbeApi {
    constructor() {
        this.name = 'probeApi';
        this.displayName = 'Probe API';
        this.properties = [{ displayName: 'Access Token', name: 'accessToken', type: 'string', typeOptions: { password: true }, default: '', description: 'The token that the API expects in each request' }];
    }
}
exports.ProbeApi = ProbeApi;
`;
const NODE_FILE = 'dist/nodes/Probe/Probe.node.js';

interface Probe {
	/** Changes the unpacked tarball. */
	package?: (dir: string) => void;
	/** Changes the sources: package.json alone (the repository's own sources are scanned by `npm run lint`). */
	source?: (dir: string) => void;
}

/** Builds a source tree and an unpacked tarball, lets the probe break one, and runs the scan on both. */
function scan(name: string, probe: Probe = {}): { status: number | null; output: string } {
	const sourceDir = join(work, name, 'source');
	const packageDir = join(work, name, 'package');
	mkdirSync(sourceDir, { recursive: true });
	cpSync(join(root, 'package.json'), join(sourceDir, 'package.json'));
	mkdirSync(join(packageDir, 'dist/nodes/Probe'), { recursive: true });
	mkdirSync(join(packageDir, 'dist/credentials'), { recursive: true });
	for (const file of ['README.md', 'LICENSE']) cpSync(join(root, file), join(packageDir, file));
	writeFileSync(
		join(packageDir, 'package.json'),
		JSON.stringify(
			{
				...manifest,
				n8n: {
					...manifest.n8n,
					nodes: [NODE_FILE],
					credentials: ['dist/credentials/ProbeApi.credentials.js'],
				},
			},
			null,
			2,
		),
	);
	writeFileSync(join(packageDir, NODE_FILE), NODE_JS);
	writeFileSync(join(packageDir, 'dist/credentials/ProbeApi.credentials.js'), CREDENTIAL_JS);
	probe.source?.(sourceDir);
	probe.package?.(packageDir);
	// Without jest's NODE_ENV=test, under which eslint-plugin-n8n-nodes-base takes every file for a node file.
	const env = { ...process.env };
	delete env.NODE_ENV;
	const run = spawnSync(
		process.execPath,
		['test/package/scan-package.mjs', '--source', sourceDir, '--package', packageDir],
		{
			cwd: root,
			encoding: 'utf8',
			env,
		},
	);
	return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const edit = (path: string, change: (text: string) => string) =>
	writeFileSync(path, change(readFileSync(path, 'utf8')));
const editManifest = (dir: string, change: (manifest: Record<string, unknown>) => void) =>
	edit(join(dir, 'package.json'), (text) => {
		const edited = JSON.parse(text) as Record<string, unknown>;
		change(edited);
		return JSON.stringify(edited, null, 2);
	});
const inNode = (code: string) => (dir: string) =>
	edit(join(dir, NODE_FILE), (text) => text.replace('class Probe {', `${code}\nclass Probe {`));

/** Breaks each check once in an unpacked tarball. */
function breakEveryCheck(dir: string) {
	// A scanner rule that an eslint-disable comment would hide, the environment, the file system, a devDependency.
	inNode(
		[
			'// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals',
			'setTimeout(() => undefined, 1);',
			'const token = process.env.APP_TOKEN;',
			'const fs = require("node:fs");',
			'const yaml = require("yaml");',
		].join('\n'),
	)(dir);
	editManifest(dir, (edited) => {
		edited.dependencies = { axios: '^1.0.0' };
		edited.license = 'ISC';
	});
	writeFileSync(join(dir, 'LICENSE'), 'All rights reserved.\n');
	edit(join(dir, 'README.md'), (text) =>
		text.replace('## Usage', '## Examples').replace('## Credentials', '## Keys'),
	);
	edit(join(dir, NODE_FILE), (text) =>
		text
			.replace(
				'Reads the latest inquiries of a form and sends them on to the next node',
				'Читает последние заявки формы',
			)
			.replace('The ID of the form to read the inquiries of', 'Идентификатор формы'),
	);
}

/** The sections of the package's own README, which the scan accepts, so only its language differs. */
function readmeSections(): string[] {
	const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
	return readme
		.split('\n')
		.filter((line) => line.startsWith('## '))
		.map((line) => line.slice(3));
}

const GERMAN_README = [
	'# n8n-nodes-appbuilder',
	...readmeSections().map(
		(section) =>
			`## ${section}\n\nDiese Knoten lesen die Anfragen eines Formulars und senden sie an den nächsten Knoten, sobald sie eintreffen.\n`,
	),
].join('\n');

describe('the package scan', () => {
	// Three runs of the scan (each loads ESLint): a package that meets every check, one that breaks each
	// check once, and one whose README is not in English.
	let clean: ReturnType<typeof scan>;
	let failing: ReturnType<typeof scan>;
	beforeAll(() => {
		clean = scan('clean');
		failing = scan('broken', {
			source: (dir) => {
				mkdirSync(join(dir, 'nodes/Probe'), { recursive: true });
				writeFileSync(
					join(dir, 'nodes/Probe/probe.ts'),
					"// eslint-disable-next-line no-console\nconsole.log('probe');\n",
				);
			},
			package: breakEveryCheck,
		});
	});
	/** The failing run's ESLint report on the packed code. */
	const packedReport = () => {
		const start = failing.output.indexOf("The scanner's rules fail on the packed code:");
		return start === -1 ? '' : failing.output.slice(start, failing.output.indexOf('✖', start));
	};

	it('passes a package that meets every check', () => {
		expect(clean).toEqual({
			status: 0,
			output: expect.stringContaining("passes n8n's community package checks"),
		});
		expect(failing.status).toBe(1);
	});

	it('fails on a scanner rule an eslint-disable comment hides in the sources', () => {
		expect(failing.output).toMatch(
			/The scanner's rules fail on the sources:[^]*probe\.ts\n\s+\d+:\d+\s+error\s+Unexpected console statement\s+no-console/,
		);
	});

	it('fails on a scanner rule an eslint-disable comment hides in the packed code', () => {
		expect(packedReport()).toMatch(/Probe\.node\.js[^]*restricted global 'setTimeout'/);
	});

	it('fails on a runtime dependency', () => {
		expect(failing.output).toContain('package.json: "dependencies" lists packages');
	});

	it('fails on the environment read from a node', () => {
		expect(packedReport()).toMatch(/restricted global 'process'/);
	});

	it('fails on the file system used from a node', () => {
		expect(failing.output).toContain(
			`${NODE_FILE}: loads 'node:fs', which n8n does not provide to a community node`,
		);
	});

	it('fails on a devDependency loaded at run time, which n8n never installs and its lint rule lets through', () => {
		expect(manifest.devDependencies).toHaveProperty('yaml');
		expect(failing.output).toContain(
			`${NODE_FILE}: loads 'yaml', which n8n does not provide to a community node`,
		);
		expect(packedReport()).not.toContain("'yaml'");
	});

	it('fails on a licence other than MIT, in package.json or in the shipped text', () => {
		expect(failing.output).toContain('package.json: "license" is "ISC"');
		expect(failing.output).toContain('LICENSE: the package ships no MIT licence text');
	});

	it('fails on a README without usage or without authentication', () => {
		expect(failing.output).toContain('README.md: no "## Usage" section');
		expect(failing.output).toContain('README.md: no "## Credentials" section');
	});

	it("fails on a node's text that is not in English", () => {
		expect(failing.output).toMatch(
			/The nodes' texts are not in English: it has the letter "Ч", not of the Latin alphabet/,
		);
	});

	it('fails on a README that is not in English', () => {
		const { status, output } = scan('readme-german', {
			package: (dir) => writeFileSync(join(dir, 'README.md'), GERMAN_README),
		});
		expect(status).toBe(1);
		expect(output).toMatch(
			/README\.md is not in English: only \d+% of its words are common English words/,
		);
	});
});
