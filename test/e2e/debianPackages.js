// @ts-check
'use strict';

const { execFileSync } = require('node:child_process');

/**
 * Installs Debian packages with apt-get (as root, the way CI runs). Every
 * clone on the machine installs through here one at a time (flock), and
 * apt-get waits for a dpkg lock another program holds instead of failing on
 * it: two suites that start at once both find what they need.
 * @param {string[]} packages
 */
function aptInstall(packages) {
	const wait = '-o DPkg::Lock::Timeout=600';
	execFileSync(
		'flock',
		[
			'/var/lock/n8n-nodes-appbuilder-apt.lock',
			'bash',
			'-c',
			`apt-get ${wait} update -qq && DEBIAN_FRONTEND=noninteractive apt-get ${wait} install -y -qq ${packages.join(' ')}`,
		],
		{ stdio: ['ignore', 'ignore', 'inherit'] },
	);
}

module.exports = { aptInstall };
