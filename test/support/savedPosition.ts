import type { CursorState } from '../../nodes/AppBuilder/trigger/cursor/cursor';
import type { TriggerPosition } from '../../nodes/AppBuilder/trigger/saved/position';

/** A trigger's saved position holding `forms`, nothing away, left over or learned, unless `extra` says. */
export function savedPosition(
	forms: Record<string, CursorState>,
	extra: Partial<TriggerPosition> = {},
): TriggerPosition {
	return {
		scope: 'app_1/new',
		forms,
		away: {},
		undatedUnknown: [],
		leftOver: [],
		quiet: {},
		...extra,
	};
}
