import { settingsFor, withScaleSizes } from './settings';

describe('--sizes: triggers per main on some form sizes alone', () => {
	const full = settingsFor('full');
	const sizes = (argv: string[]) =>
		new Set(withScaleSizes(full, argv).scale.configs.map((config) => config.size));

	it('keeps every configuration of the sizes named, and only them', () => {
		const alone = withScaleSizes(full, ['--only=scale', '--sizes=10000']).scale.configs;
		expect(alone.length).toBeGreaterThan(0);
		expect(alone).toEqual(full.scale.configs.filter((config) => config.size === 10_000));
		expect(sizes(['--only=manyPolls,scale', '--sizes=1000,10000'])).toEqual(
			new Set([1_000, 10_000]),
		);
		expect(withScaleSizes(full, ['--only=scale'])).toBe(full);
	});

	it('refuses a size the section does not measure, and sizes without --only=scale', () => {
		expect(() => withScaleSizes(full, ['--only=scale', '--sizes=5000'])).toThrow(
			'--sizes takes some of 1000, 10000',
		);
		expect(() => withScaleSizes(full, ['--only=scale', '--sizes='])).toThrow('--sizes takes');
		expect(() => withScaleSizes(full, ['--sizes=10000'])).toThrow('--sizes goes with --only=scale');
		expect(() => withScaleSizes(full, ['--only=allForms', '--sizes=10000'])).toThrow(
			'--sizes goes with --only=scale',
		);
	});
});
