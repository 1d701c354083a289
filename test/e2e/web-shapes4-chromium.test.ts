// Page shapes a new user met (a modal dialog, a popover, a disclosure, shadow and iframe forms, a required field, a
// virtual list under a sticky header), in chromium (test/helpers/web-shapes4-suite.ts); another file runs the same tests on
// the other browser, so the two can run in parallel.
import { webShapes4Suite } from '../helpers/web-shapes4-suite.js';

webShapes4Suite('chromium');
