// @ts-check
'use strict';

const { existsSync } = require('node:fs');

const { aptInstall } = require('./debianPackages');

const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium, installed on first use (as root, the way CI runs). */
function ensureChromium() {
	if (existsSync(CHROMIUM)) return CHROMIUM;
	aptInstall(['chromium']);
	return CHROMIUM;
}

/** Headless Chromium flags for a machine with no network but loopback. */
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

module.exports = { ensureChromium, CHROMIUM_ARGS };
