import type { CursorState } from '../../nodes/AppBuilder/trigger/cursor/cursor';
import type { TriggerPosition } from '../../nodes/AppBuilder/trigger/saved/position';

/** A trigger's saved position watching every form, each form's record holding only `forms`' cursor, unless `extra` says. */
export function savedPosition(
	forms: Record<string, CursorState>,
	extra: Partial<TriggerPosition> = {},
): TriggerPosition {
	return {
		scope: 'app_1/new',
		watch: { kind: 'all' },
		forms: Object.fromEntries(
			Object.entries(forms).map(([pageId, cursor]) => [pageId, { cursor }]),
		),
		leftOver: [],
		...extra,
	};
}
