/**
 * What a run measures, section by section: the full run's settings, or the
 * smoke run's (`--smoke`), which take the same paths small. Each section's
 * own file holds both and says why.
 */
import { ADD_USER, type AddUserSettings } from './sections/addUser';
import { ALL_FORMS, type AllFormsSettings } from './sections/allForms';
import { COMPRESSED_READ, type CompressedReadSettings } from './sections/compressedRead';
import { CYCLE_PROFILE, type CycleProfileSettings } from './sections/cycleProfile';
import { MANY_POLLS, type ManyPollsSettings } from './sections/manyPolls';
import { MEMORY, type MemorySettings } from './sections/memory';
import { ONE_POLL, type OnePollSettings } from './sections/onePoll';
import { CYCLES, type CycleSettings } from './sections/pollCycle';
import { SLOW_LINK, type SlowLinkSettings } from './sections/slowLink';
import { STATIC_DATA, type StaticDataSettings } from './sections/staticData';
import { SCALE, type ScaleSettings } from './sections/triggersPerMain';

export interface RunSettings {
	onePoll: OnePollSettings;
	manyPolls: ManyPollsSettings;
	staticData: StaticDataSettings;
	memory: MemorySettings;
	/** One poll cycle in n8n against the peer, and n8n's own floor measured alongside. */
	cycles: CycleSettings;
	cycleProfile: CycleProfileSettings;
	scale: ScaleSettings;
	allForms: AllFormsSettings;
	compressedRead: CompressedReadSettings;
	slowLink: SlowLinkSettings;
	addUser: AddUserSettings;
}

export function settingsFor(run: 'full' | 'smoke'): RunSettings {
	return {
		onePoll: ONE_POLL[run],
		manyPolls: MANY_POLLS[run],
		staticData: STATIC_DATA[run],
		memory: MEMORY[run],
		cycles: CYCLES[run],
		cycleProfile: CYCLE_PROFILE[run],
		scale: SCALE[run],
		allForms: ALL_FORMS[run],
		compressedRead: COMPRESSED_READ[run],
		slowLink: SLOW_LINK[run],
		addUser: ADD_USER[run],
	};
}

/**
 * `--sizes=10000`: triggers per main measured on those form sizes alone (a
 * size's search takes about an hour); the report keeps the other sizes as
 * the run that measured them wrote them.
 */
export function withScaleSizes(settings: RunSettings, argv: string[]): RunSettings {
	const given = argv.find((arg) => arg.startsWith('--sizes='));
	if (!given) return settings;
	// A full run writes every size's part: one size alone is a partial run.
	if (!argv.some((arg) => arg.startsWith('--only=') && arg.slice(7).split(',').includes('scale')))
		throw new Error('--sizes goes with --only=scale: npm run bench -- --only=scale --sizes=10000');
	const known = [...new Set(settings.scale.configs.map((config) => config.size))];
	const sizes = given
		.slice('--sizes='.length)
		.split(',')
		.map((size) => Number(size.replace(/_/g, '')));
	if (sizes.length === 0 || sizes.some((size) => !known.includes(size)))
		throw new Error(
			`--sizes takes some of ${known.join(', ')}, separated by commas; not ${JSON.stringify(given.slice('--sizes='.length))}`,
		);
	return {
		...settings,
		scale: {
			...settings.scale,
			configs: settings.scale.configs.filter((config) => sizes.includes(config.size)),
		},
	};
}
