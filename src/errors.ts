/**
 * The failures every layer may report to a caller, kept apart from the tool layer so the terminal driver,
 * the platform code and the tools share one list. A code is a stable, machine-readable promise: clients
 * branch on it, so a code once listed keeps its meaning. The README's code table is checked against this
 * list by a test.
 */
export const ERROR_CODES = {
  // Calling the tool at all
  unknown_tool: 'no tool has that name',
  invalid_arguments: 'an argument is missing, of the wrong type or out of range; the message names the field',
  destination_exists: 'a file the call would write is there already and cup-driver did not write it (or it is a link); pass overwrite: true to replace it',
  internal_error: 'a bug in the driver; the message says where',
  daemon_unavailable: 'the background daemon could not be reached or started',
  daemon_stopping: 'the daemon was stopping when the call arrived; the CLI retries it once',
  daemon_stopped: 'the daemon stopped before the call finished; the call was cancelled',
  bad_request: 'a daemon request line is not a valid call',
  request_too_large: 'a daemon request line is over the size limit',
  session_unavailable: 'the session is busy or could not be created',
  // The embedded virtual desktop (`cup-driver desktop`)
  desktop_not_found: 'cup-driver started no virtual desktop on that display',
  desktop_not_chosen: 'DISPLAY names no desktop cup-driver started: desktop stop needs --display :N or --all',
  display_unavailable: 'no X server answers on the display; the message names the display and why',
  accessibility_bus_unavailable: 'the AT-SPI accessibility bus cannot be reached (at-spi-bus-launcher or its bus stopped); the message says why and how to bring it back',
  // Choosing what to act on
  missing_target: 'neither pid nor window_id was given where one is needed',
  missing_pid: 'the tool needs a pid',
  missing_window_id: 'the tool needs a window_id',
  missing_coordinate: 'x and y must be given together',
  conflicting_target: 'arguments name two different targets',
  pid_mismatch: 'the window does not belong to the given pid',
  window_mismatch: 'the element belongs to another window',
  window_not_found: 'no window has that id (or the pid has no window)',
  no_window: 'the app started but showed no window in time, or exited',
  window_gone: 'the window closed while the call ran',
  app_not_found: 'no installed app or running process matches',
  urls_not_opened: 'the files or URLs were not opened: the app\'s desktop entry takes none (or only one), or the app refused them',
  no_such_process: 'no process has that pid',
  protected_process: 'the process may not be killed by the driver',
  kill_failed: 'the process survived the signals sent to it',
  no_snapshot: 'no get_window_state of that window (or with that snapshot id) in this session',
  unknown_element: 'no element of the window (or of the element token\'s snapshot) ever had that index',
  stale_element: 'the element is gone since the snapshot it was read in (from the app, or from the window\'s latest snapshot)',
  outside_window: 'the point or region lies outside the window, or in its part off the screen (for real input)',
  element_not_visible: 'the element has no on-screen point to act at',
  terminal_row: 'the element is a row of a terminal\'s screen (text it shows, no object of the app): type or press keys into the terminal, or click the row by its pixels; the message gives both',
  no_accessibility: 'the app exposes no accessibility tree',
  app_not_responding: 'the app did not answer in time',
  // Acting
  invalid_key: 'a key name or combination is not known',
  unsupported_character: 'the character cannot be typed on this keyboard map',
  activation_failed: 'the window could not be brought to the front',
  input_held_by_menu: 'another app\'s open menu or drop-down list holds the keyboard and pointer, so real input would go to it; nothing was sent',
  point_covered: 'with the window in front, another window (one kept above the others, a dialog of it) still lies over the point, so a real click there would reach that one; nothing was sent',
  drop_point_covered: 'a drag\'s drop point on another window is covered (by the window dragged from, once in front); nothing was sent',
  focus_refused: 'the element would not take keyboard focus',
  insert_refused: 'the app refused text inserted through accessibility',
  set_text_refused: 'the app refused the new text',
  read_only: 'the element is read-only or disabled',
  element_disabled: 'the element is disabled (the app takes no click on it); nothing was sent',
  not_settable: 'the element has no settable value',
  not_a_number: 'the element takes a number and the value is not one',
  not_a_boolean: 'the element takes on/off and the value is neither',
  out_of_range: 'the number is outside the element\'s range',
  no_such_option: 'the list has no option with that text',
  not_multiselectable: 'several options were given for a list that selects only one',
  option_not_selectable: 'the option exists but cannot be chosen',
  choice_not_taken: 'the choice was sent but the app did not take it',
  invalid_value: 'the value is not written the way the element takes it (a page\'s date field takes YYYY-MM-DD); the message says how',
  not_delivered: 'a plan step\'s action sent nothing (its path is none); the plan counts it failed, and the message says why and what to try',
  no_step_window: 'a run_actions step\'s window_id {"from_step": N} names a step that produced no window (it failed, opened or matched none, or several), or whose window has closed',
  nothing_to_scroll: 'nothing under the point scrolls',
  ambiguous_scroll_target: 'more than one scrollable area could be meant',
  no_zoom: 'zoom needs a screenshot of the window in this session first',
  empty_region: 'the region has no pixels inside the window',
  // Clipboard, menus, held buttons
  clipboard_empty: 'nobody owns the clipboard, or its owner offers nothing in the form asked for; the message lists what it offers',
  no_menu_bar: 'the window exposes no menu bar through accessibility',
  menu_item_not_found: 'a menu on the path has no item of that name; the message lists the items it has',
  menu_item_disabled: 'the menu item exists but is disabled',
  menu_not_actionable: 'the toolkit offers no accessibility action on the menu item (GTK4\'s menu bar); open the menu with a foreground click',
  blocked_by_modal_dialog: 'a modal dialog of the app is up over the window: answer or close it first',
  no_button_held: 'the session holds no mouse button (call mouse_button_down first)',
  button_busy: 'another session holds that mouse button, or a foreground click or drag was asked while a button is down',
  // Browser pages (the page tool)
  no_debugging_endpoint: 'the browser was started without a debugging port, so its page cannot run JavaScript or take page actions; the message says how to relaunch it (launch_app with electron_debugging_port)',
  page_unreachable: 'the browser\'s debugging endpoint did not answer, or it has no page that answers',
  page_element_not_found: 'no element of the page matches the CSS selector',
  javascript_error: 'the page\'s JavaScript threw (or does not parse); the message is the browser\'s',
  navigation_failed: 'the page could not load the URL (bad address, network error, or timeout)',
  // Terminal programs
  no_driver: 'no terminal program runs under that session name; start one with tui_start',
  too_many_sessions: 'the limit of terminal programs is reached',
  exited: 'the terminal program has exited',
  not_found: 'no element on the terminal screen, or of the window an action\'s selector names, matches the selector',
  invalid_selector: 'the selector does not parse',
  invalid_predicate: 'the predicate does not parse',
  mouse_unavailable: 'the terminal program has not enabled mouse reporting',
  timeout: 'a wait ran out of time before its condition held',
  cancelled: 'the caller cancelled the call (MCP notifications/cancelled, Ctrl-C) before it finished; nothing more was sent',
  policy_invalid: 'the terminal policy file is malformed',
  command_rejected: 'the program is not on the terminal allowlist, or not found where allowed',
  cwd_rejected: 'the working directory is outside the allowed roots',
  argv_rejected: 'a program argument is refused by the terminal policy',
  spawn_failed: 'the terminal program could not be started',
  terminal_unavailable: 'node-pty, the terminal driver\'s native part, could not be loaded; the message says how to fix it',
  already_started: 'a terminal program already runs under that session name',
  ambiguous: 'the selector matches more than one element where one is needed (a terminal\'s, or an action\'s selector)',
  focus_failed: 'the terminal element could not be focused',
  // Recording and replay
  ffmpeg_missing: 'a screen video needs ffmpeg, which is not installed; install_ffmpeg installs it',
  recording_failed: 'the screen recorder (ffmpeg) could not start or could not finish the video; the message has its own words',
  output_dir_in_use: 'the folder already holds a recording (another session records into it, or turn folders of an earlier one are there)',
  not_a_trajectory: 'the folder holds no turn folders written by start_recording',
  replay_step_failed: 'a replayed turn could not be aimed again or failed; the message names the turn and why',
  install_failed: 'the install command failed; the message has the command and its output',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/**
 * An expected failure (bad target, missing window, a wait that ran out, ...): reported to the caller as a
 * tool error with its code and details, never as a crash.
 */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly code: ErrorCode = 'internal_error',
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ToolError';
  }
}
