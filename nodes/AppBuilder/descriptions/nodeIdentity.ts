import type { Icon } from 'n8n-workflow';

/**
 * Both nodes' icon. (The credentials entry stays in each node file: n8n's
 * lint reads its testedBy there.)
 */
export const appBuilderIcon: Icon = {
	light: 'file:../../icons/appbuilder.svg',
	dark: 'file:../../icons/appbuilder.dark.svg',
};
