// AT-SPI2 enumerations by their wire numbers, as at-spi2-core's atspi-constants.h defines them.
// A test checks both tables against the installed libatspi (via python3-gi) so an off-by-one cannot slip in.

/** AtspiRole names in role-number order (Accessible.GetRole). */
const roleNames = [
  'ROLE_INVALID', // 0
  'ROLE_ACCELERATOR_LABEL', // 1
  'ROLE_ALERT', // 2
  'ROLE_ANIMATION', // 3
  'ROLE_ARROW', // 4
  'ROLE_CALENDAR', // 5
  'ROLE_CANVAS', // 6
  'ROLE_CHECK_BOX', // 7
  'ROLE_CHECK_MENU_ITEM', // 8
  'ROLE_COLOR_CHOOSER', // 9
  'ROLE_COLUMN_HEADER', // 10
  'ROLE_COMBO_BOX', // 11
  'ROLE_DATE_EDITOR', // 12
  'ROLE_DESKTOP_ICON', // 13
  'ROLE_DESKTOP_FRAME', // 14
  'ROLE_DIAL', // 15
  'ROLE_DIALOG', // 16
  'ROLE_DIRECTORY_PANE', // 17
  'ROLE_DRAWING_AREA', // 18
  'ROLE_FILE_CHOOSER', // 19
  'ROLE_FILLER', // 20
  'ROLE_FOCUS_TRAVERSABLE', // 21
  'ROLE_FONT_CHOOSER', // 22
  'ROLE_FRAME', // 23
  'ROLE_GLASS_PANE', // 24
  'ROLE_HTML_CONTAINER', // 25
  'ROLE_ICON', // 26
  'ROLE_IMAGE', // 27
  'ROLE_INTERNAL_FRAME', // 28
  'ROLE_LABEL', // 29
  'ROLE_LAYERED_PANE', // 30
  'ROLE_LIST', // 31
  'ROLE_LIST_ITEM', // 32
  'ROLE_MENU', // 33
  'ROLE_MENU_BAR', // 34
  'ROLE_MENU_ITEM', // 35
  'ROLE_OPTION_PANE', // 36
  'ROLE_PAGE_TAB', // 37
  'ROLE_PAGE_TAB_LIST', // 38
  'ROLE_PANEL', // 39
  'ROLE_PASSWORD_TEXT', // 40
  'ROLE_POPUP_MENU', // 41
  'ROLE_PROGRESS_BAR', // 42
  'ROLE_PUSH_BUTTON', // 43
  'ROLE_RADIO_BUTTON', // 44
  'ROLE_RADIO_MENU_ITEM', // 45
  'ROLE_ROOT_PANE', // 46
  'ROLE_ROW_HEADER', // 47
  'ROLE_SCROLL_BAR', // 48
  'ROLE_SCROLL_PANE', // 49
  'ROLE_SEPARATOR', // 50
  'ROLE_SLIDER', // 51
  'ROLE_SPIN_BUTTON', // 52
  'ROLE_SPLIT_PANE', // 53
  'ROLE_STATUS_BAR', // 54
  'ROLE_TABLE', // 55
  'ROLE_TABLE_CELL', // 56
  'ROLE_TABLE_COLUMN_HEADER', // 57
  'ROLE_TABLE_ROW_HEADER', // 58
  'ROLE_TEAROFF_MENU_ITEM', // 59
  'ROLE_TERMINAL', // 60
  'ROLE_TEXT', // 61
  'ROLE_TOGGLE_BUTTON', // 62
  'ROLE_TOOL_BAR', // 63
  'ROLE_TOOL_TIP', // 64
  'ROLE_TREE', // 65
  'ROLE_TREE_TABLE', // 66
  'ROLE_UNKNOWN', // 67
  'ROLE_VIEWPORT', // 68
  'ROLE_WINDOW', // 69
  'ROLE_EXTENDED', // 70
  'ROLE_HEADER', // 71
  'ROLE_FOOTER', // 72
  'ROLE_PARAGRAPH', // 73
  'ROLE_RULER', // 74
  'ROLE_APPLICATION', // 75
  'ROLE_AUTOCOMPLETE', // 76
  'ROLE_EDITBAR', // 77
  'ROLE_EMBEDDED', // 78
  'ROLE_ENTRY', // 79
  'ROLE_CHART', // 80
  'ROLE_CAPTION', // 81
  'ROLE_DOCUMENT_FRAME', // 82
  'ROLE_HEADING', // 83
  'ROLE_PAGE', // 84
  'ROLE_SECTION', // 85
  'ROLE_REDUNDANT_OBJECT', // 86
  'ROLE_FORM', // 87
  'ROLE_LINK', // 88
  'ROLE_INPUT_METHOD_WINDOW', // 89
  'ROLE_TABLE_ROW', // 90
  'ROLE_TREE_ITEM', // 91
  'ROLE_DOCUMENT_SPREADSHEET', // 92
  'ROLE_DOCUMENT_PRESENTATION', // 93
  'ROLE_DOCUMENT_TEXT', // 94
  'ROLE_DOCUMENT_WEB', // 95
  'ROLE_DOCUMENT_EMAIL', // 96
  'ROLE_COMMENT', // 97
  'ROLE_LIST_BOX', // 98
  'ROLE_GROUPING', // 99
  'ROLE_IMAGE_MAP', // 100
  'ROLE_NOTIFICATION', // 101
  'ROLE_INFO_BAR', // 102
  'ROLE_LEVEL_BAR', // 103
  'ROLE_TITLE_BAR', // 104
  'ROLE_BLOCK_QUOTE', // 105
  'ROLE_AUDIO', // 106
  'ROLE_VIDEO', // 107
  'ROLE_DEFINITION', // 108
  'ROLE_ARTICLE', // 109
  'ROLE_LANDMARK', // 110
  'ROLE_LOG', // 111
  'ROLE_MARQUEE', // 112
  'ROLE_MATH', // 113
  'ROLE_RATING', // 114
  'ROLE_TIMER', // 115
  'ROLE_STATIC', // 116
  'ROLE_MATH_FRACTION', // 117
  'ROLE_MATH_ROOT', // 118
  'ROLE_SUBSCRIPT', // 119
  'ROLE_SUPERSCRIPT', // 120
  'ROLE_DESCRIPTION_LIST', // 121
  'ROLE_DESCRIPTION_TERM', // 122
  'ROLE_DESCRIPTION_VALUE', // 123
  'ROLE_FOOTNOTE', // 124
  'ROLE_CONTENT_DELETION', // 125
  'ROLE_CONTENT_INSERTION', // 126
  'ROLE_MARK', // 127
  'ROLE_SUGGESTION', // 128
  'ROLE_PUSH_BUTTON_MENU', // 129
] as const;

/** AtspiStateType names in bit-number order of the two-word state set (Accessible.GetState). */
const stateNames = [
  'STATE_INVALID', // 0
  'STATE_ACTIVE', // 1
  'STATE_ARMED', // 2
  'STATE_BUSY', // 3
  'STATE_CHECKED', // 4
  'STATE_COLLAPSED', // 5
  'STATE_DEFUNCT', // 6
  'STATE_EDITABLE', // 7
  'STATE_ENABLED', // 8
  'STATE_EXPANDABLE', // 9
  'STATE_EXPANDED', // 10
  'STATE_FOCUSABLE', // 11
  'STATE_FOCUSED', // 12
  'STATE_HAS_TOOLTIP', // 13
  'STATE_HORIZONTAL', // 14
  'STATE_ICONIFIED', // 15
  'STATE_MODAL', // 16
  'STATE_MULTI_LINE', // 17
  'STATE_MULTISELECTABLE', // 18
  'STATE_OPAQUE', // 19
  'STATE_PRESSED', // 20
  'STATE_RESIZABLE', // 21
  'STATE_SELECTABLE', // 22
  'STATE_SELECTED', // 23
  'STATE_SENSITIVE', // 24
  'STATE_SHOWING', // 25
  'STATE_SINGLE_LINE', // 26
  'STATE_STALE', // 27
  'STATE_TRANSIENT', // 28
  'STATE_VERTICAL', // 29
  'STATE_VISIBLE', // 30
  'STATE_MANAGES_DESCENDANTS', // 31
  'STATE_INDETERMINATE', // 32
  'STATE_REQUIRED', // 33
  'STATE_TRUNCATED', // 34
  'STATE_ANIMATED', // 35
  'STATE_INVALID_ENTRY', // 36
  'STATE_SUPPORTS_AUTOCOMPLETION', // 37
  'STATE_SELECTABLE_TEXT', // 38
  'STATE_IS_DEFAULT', // 39
  'STATE_VISITED', // 40
  'STATE_CHECKABLE', // 41
  'STATE_HAS_POPUP', // 42
  'STATE_READ_ONLY', // 43
] as const;

/** AtspiRole names indexed by role number (Accessible.GetRole). */
export const ATSPI_ROLE_NAMES: readonly string[] = roleNames;
/** AtspiStateType names indexed by bit number in the two-word state set (Accessible.GetState). */
export const ATSPI_STATE_NAMES: readonly string[] = stateNames;

type Unprefixed<Name, Prefix extends string> = Name extends `${Prefix}${infer Rest}` ? Rest : never;

/** name → number, the prefix dropped: code names roles and states (ATSPI_ROLE.SCROLL_PANE) instead of spelling their numbers. */
function numbered<const Names extends readonly string[], Prefix extends string>(names: Names, prefix: Prefix): Record<Unprefixed<Names[number], Prefix>, number> {
  return Object.fromEntries(names.map((name, number) => [name.slice(prefix.length), number])) as Record<Unprefixed<Names[number], Prefix>, number>;
}

/** AtspiRole numbers by name, e.g. ATSPI_ROLE.PUSH_BUTTON (43). */
export const ATSPI_ROLE = numbered(roleNames, 'ROLE_');
/** AtspiStateType numbers (bit positions in the state set) by name, e.g. ATSPI_STATE.SHOWING (25). */
export const ATSPI_STATE = numbered(stateNames, 'STATE_');
