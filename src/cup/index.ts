// Public API of the CUP protocol core.
export * from './types.js';
export { ACTION_CODES, ROLE_CODES, STATE_CODES, actionCode, roleCode, stateCode } from './codes.js';
export { countClosedMenuItems, countOutsideClosedMenus, pruneTree, unreadCounts, unreadWhileHidden, type ClipCounts, type PrunedHint, type PrunedItem, type PrunedNode, type PrunedTree } from './prune.js';
export { capCompactText, DEFAULT_MAX_CHARS, toCompact, type CompactOptions } from './compact.js';
export { toOverview } from './overview.js';
export { toMarkdown, type MarkdownOptions } from './markdown.js';
export { filterTree, filterTreeText, queryMatches, type TreeQuery } from './query.js';
export { CUP_VERSION, assignIds, buildEnvelope, countNodes, type EnvelopeInput } from './envelope.js';
export { validateEnvelope, type ValidationResult } from './validate.js';
export { diffTrees, type ChangedNode, type DiffNode, type DiffReading, type MovedNode, type NodeChanges, type TreeDiff } from './diff.js';
export { WindowNumbering } from './numbering.js';
export { DEFAULT_DIFF_LINES, diffCounts, diffLines, diffSummary, stateChangesText } from './diff-text.js';
export { cutTree } from './cut.js';
export { isDrawnSurface, isInputOnly, platformCount } from './fields.js';
