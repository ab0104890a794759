// @ts-check
'use strict';

/** The account every test starts with (seed "test"); the values are the emulator's, not real secrets. */
const FIXTURE = Object.freeze({
	accessToken: 'emu-access-token',
	apiKey: 'emu-api-key',
	// Digits, as the App Builder back-end shows an app ID (the node's hint and the docs use it too), kept as text.
	appId: '6543210',
	formPageId: 'formbuilder_1001_1',
	secondFormPageId: 'formbuilder_1001_2',
	pages: Object.freeze([
		Object.freeze({ pageId: 'formbuilder_1001_1', pageName: 'Contact Us' }),
		Object.freeze({ pageId: 'formbuilder_1001_2', pageName: 'Quote Request' }),
		Object.freeze({ pageId: 'home_1001', pageName: 'Home' }),
	]),
	clientId: 'emu-client-id',
	clientSecret: 'emu-client-secret',
	refreshToken: 'emu-refresh-token-0',
});

/** Realistic leads for the demo seed and for `--new-inquiry-every`. */
const DEMO_LEADS = [
	{
		name: 'Maria Garcia',
		email: 'maria.garcia@example.com',
		phone: '+1 415 555 0132',
		company: 'Garcia Bakery',
		budget: '5000-10000',
		message: 'We need an ordering app for our three shops.',
	},
	{
		name: 'Kenji Tanaka',
		email: 'kenji.tanaka@example.jp',
		phone: '+81 3 5555 0199',
		company: 'Tanaka Logistics',
		budget: '20000+',
		message: 'Looking for a driver app with live tracking.',
	},
	{
		name: 'Amara Okafor',
		email: 'amara@okafor-studio.example',
		phone: '+234 80 5555 0101',
		company: 'Okafor Studio',
		budget: '1000-5000',
		message: 'Portfolio app with a booking form, please call me.',
	},
	{
		name: 'Lukas Schmidt',
		email: 'l.schmidt@example.de',
		phone: '+49 30 5555 0178',
		company: 'Schmidt Fitness',
		budget: '5000-10000',
		message: 'Members app: class schedule and push notifications.',
	},
	{
		name: 'Priya Nair',
		email: 'priya.nair@example.in',
		phone: '+91 98 5555 0123',
		company: 'Nair Clinics',
		budget: '10000-20000',
		message: 'Patient appointment app for two clinics.',
	},
	{
		name: 'Sophie Martin',
		email: 'sophie.martin@example.fr',
		phone: '+33 1 55 55 01 45',
		company: 'Martin & Fils',
		budget: '1000-5000',
		message: 'Simple catalogue app for our wine shop.',
	},
	{
		name: 'Diego Rossi',
		email: 'diego.rossi@example.it',
		phone: '+39 06 5555 0167',
		company: 'Rossi Trattoria',
		budget: '1000-5000',
		message: 'Table reservations and a loyalty card.',
	},
	{
		name: 'Ava Thompson',
		email: 'ava.t@example.co.uk',
		phone: '+44 20 5555 0110',
		company: 'Thompson Realty',
		budget: '10000-20000',
		message: 'Property listings app with an enquiry form.',
	},
];

const CONTACT_FORM_FIELDS = [
	{ name: 'name', label: 'Your Name' },
	{ name: 'email', label: 'Email Address' },
	{ name: 'phone', label: 'Phone Number' },
	{ name: 'company', label: 'Company' },
	{ name: 'budget', label: 'Budget (USD)' },
	{ name: 'message', label: 'How can we help?' },
];

/**
 * @param {number} index
 * @returns {Array<{name: string, label: string, value: string}>}
 */
function demoLeadFields(index) {
	const lead = /** @type {Record<string, string>} */ (DEMO_LEADS[index % DEMO_LEADS.length]);
	return CONTACT_FORM_FIELDS.map((field) => ({ ...field, value: lead[field.name] }));
}

/**
 * The App Builder API credential's fields for an emulator, as a user would
 * fill them in: web services always, the Connect client when asked.
 * @param {{webUrl: string, connectUrl: string}} emu
 * @param {{connect?: boolean}} [options]
 * @returns {Record<string, string | boolean>}
 */
function credentialDataFor(emu, options = {}) {
	const web = { accessToken: FIXTURE.accessToken, apiKey: FIXTURE.apiKey, baseUrl: emu.webUrl };
	if (!options.connect) return { ...web, useConnect: false };
	return {
		...web,
		useConnect: true,
		connectBaseUrl: emu.connectUrl,
		clientId: FIXTURE.clientId,
		clientSecret: FIXTURE.clientSecret,
		refreshToken: FIXTURE.refreshToken,
	};
}

module.exports = { FIXTURE, DEMO_LEADS, demoLeadFields, credentialDataFor };
